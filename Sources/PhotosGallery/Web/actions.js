// Everything the gallery changes, each one change block through the
// server (POST /v1/changes). Nothing here touches the grid: what a change
// did comes back through the change stream (live.js) for every open
// gallery alike, this one included.
import { change } from './api.js';

export const setFavorite = (ids, favorite) => change(ids.map((asset) => ({ op: 'updateAsset', asset, favorite })));
export const setHidden = (ids, hidden) => change(ids.map((asset) => ({ op: 'updateAsset', asset, hidden })));
export const setRating = (ids, rating) => change(ids.map((asset) => ({ op: 'updateAsset', asset, rating })));
/** Sets the caption; an empty one clears it. */
export const setCaption = (id, caption) => change([{ op: 'updateAsset', asset: id, caption: caption || null }]);
export const addKeywords = (ids, keywords) => change(ids.map((asset) => ({ op: 'updateAsset', asset, addKeywords: keywords })));
export const removeKeywords = (ids, keywords) => change(ids.map((asset) => ({ op: 'updateAsset', asset, removeKeywords: keywords })));
export const deleteAssets = (ids) => change([{ op: 'deleteAssets', assets: ids }]);
export const restoreAssets = (ids) => change([{ op: 'restoreAssets', assets: ids }]);
export const addToAlbum = (album, ids) => change([{ op: 'updateAlbum', album, addAssets: ids }]);
export const removeFromAlbum = (album, ids) => change([{ op: 'updateAlbum', album, removeAssets: ids }]);
export const moveInAlbum = (album, ids, toIndex) => change([{ op: 'updateAlbum', album, moveAssets: ids, toIndex }]);
export const renameAlbum = (album, title) => change([{ op: 'updateAlbum', album, title }]);
export const renameFolder = (folder, title) => change([{ op: 'updateFolder', folder, title }]);
export const deleteAlbum = (album) => change([{ op: 'deleteAlbums', albums: [album] }]);
export const deleteFolder = (folder) => change([{ op: 'deleteFolders', folders: [folder] }]);

/** A new album holding `ids`, inside `folder` when one is given. */
export function createAlbum(title, ids = [], folder = null) {
  /** @type {Record<string, unknown>[]} */
  const requests = [{ op: 'createAlbum', ref: 'album', title, addAssets: ids }];
  if (folder) requests.push({ op: 'updateFolder', folder, addCollections: ['$album'] });
  return change(requests);
}

/** A new folder, inside `folder` when one is given. */
export function createFolder(title, folder = null) {
  /** @type {Record<string, unknown>[]} */
  const requests = [{ op: 'createFolder', ref: 'folder', title }];
  if (folder) requests.push({ op: 'updateFolder', folder, addCollections: ['$folder'] });
  return change(requests);
}

/** Finished uploads as assets, in one change block (where the server pairs a Live Photo's photo and video). */
export const createAssets = (uploads) => change(uploads.map((upload) => ({ op: 'createAsset', upload })));
