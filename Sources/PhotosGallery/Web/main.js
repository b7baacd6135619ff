// The gallery's entry point: signs in (a token, or a share link's
// /#share=<token>), then puts the pieces together: the side bar, the grid
// of the open view (the timeline or a collection), the scrubber, the
// viewer, selection and its actions, uploads, the filter, and the change
// stream that keeps all of it current.
import { ApiError, getData, whenSessionEnds } from './api.js';
import { currentSession, needsPassword, signIn, signOut } from './session.js';
import { Grid } from './grid.js';
import { MapView } from './map.js';
import { TimelineSource, CollectionSource, PersonSource, SearchSource } from './sources.js';
import { connectScrolling } from './scroller.js';
import { Selection, connectSelection } from './selection.js';
import { Scrubber } from './scrubber.js';
import { Viewer } from './viewer.js';
import { Sidebar } from './sidebar.js';
import { Uploader, droppedFiles } from './upload.js';
import { FilterBar } from './filter.js';
import { ChangeStream } from './live.js';
import { openShareDialog } from './share.js';
import * as actions from './actions.js';
import { ask, Cancelled } from './dialogs.js';
import { notify, notifyError } from './notices.js';
import { stars, ratingForKey } from './format.js';

/** What the owner reads for each kind of understanding the indexer keeps. */
const INDEX_KIND_NAMES = /** @type {Record<string, string>} */ ({ metadata: 'places and words', text: 'text in photos' });

/**
 * An element of the page by id. Typed loosely: index.html decides each one's kind (a form, an input).
 * @type {(id: string) => any}
 */
const $ = (id) => document.getElementById(id);

class Gallery {
  constructor(session) {
    this.session = session;
    this.selection = new Selection();
    this.collection = null;
    this.filter = { predicate: '', album: '' };
    this.search = '';
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.indexTimer = undefined;
    this.viewer = new Viewer($('viewer'), { readOnly: session.readOnly });
    this.sidebar = new Sidebar($('sidebar'), { session, open: (c) => this.openCollection(c), share: (c) => openShareDialog(c) });
    this.uploader = new Uploader($('uploads'));
    this.filterBar = new FilterBar($('filter'), (value) => this.applyFilter(value));
    this.stream = new ChangeStream({
      onChange: (change) => this.changed(change),
      onReset: () => this.reload(),
      onState: (state) => this.liveState(state),
    });
    document.body.classList.toggle('read-only', session.readOnly);
    this.connectChrome();
    this.selection.addEventListener('change', () => this.drawSelectionBar());
  }

  async start() {
    await this.stream.start();
    await Promise.all([this.show(), this.sidebar.load(), this.loadAlbums()]);
    this.showIndexProgress();
  }

  /**
   * Says, to the owner, how much of the library search can find while the
   * server's indexer works through it, and again a little after changes.
   */
  async showIndexProgress() {
    if (!this.session.isOwner) return;
    clearTimeout(this.indexTimer);
    const status = await getData('/v1/index').catch(() => null);
    const element = $('index-state');
    if (!status) return;
    // A kind whose model the server lacks never finishes: it is not work in progress.
    const working = status.kinds.filter((k) => k.phase !== 'unavailable' && (k.phase !== 'following' || k.pendingChanges > 0));
    const busy = status.searchable < status.assets || working.length > 0;
    element.hidden = !busy;
    element.textContent = !busy ? ''
      : status.searchable < status.assets ? `Indexing: ${status.searchable.toLocaleString()} of ${status.assets.toLocaleString()} searchable`
      : `Indexing: ${working.map((k) => INDEX_KIND_NAMES[k.name] ?? k.name).join(', ')}`;
    if (busy) this.indexTimer = setTimeout(() => this.showIndexProgress(), 3000);
  }

  /** Shows the open view (the timeline, or a collection) with the filter applied. */
  async show() {
    this.grid?.destroy();
    this.grid = null;
    this.map?.destroy();
    this.map = null;
    this.selection.clear();
    const collection = this.collection;
    const search = this.search;
    const onMap = collection?.kind === 'map' && !search;
    $('grid-frame').hidden = onMap;
    $('map').hidden = !onMap;
    if (onMap) return this.showMap();
    const source = search ? new SearchSource(search)
                 : collection?.kind === 'person' ? new PersonSource(collection, { predicate: this.filter.predicate })
                 : collection ? new CollectionSource(collection, { predicate: this.filter.predicate })
                 : new TimelineSource({ predicate: this.filter.predicate });
    const grid = new Grid(fresh('grid'), source, this.selection);
    this.grid = grid;
    grid.reorderable = source.ordered && !this.session.readOnly;
    connectScrolling(grid);
    connectSelection(grid, this.selection, (id) => this.viewer.open(id, grid));
    this.connectReordering(grid);
    this.scrubber = new Scrubber(fresh('scrubber'), grid);
    grid.addEventListener('error', (event) => notifyError(/** @type {CustomEvent} */ (event).detail, 'Part of the grid did not load'));
    $('view-title').textContent = search ? `Search: ${this.searchTitle || search}`
      : collection ? collection.title || 'Untitled' : this.session.isShare ? this.session.label.replace(/^share: /, '') : 'Photos';
    this.drawViewActions();
    try {
      await grid.load();
      this.filterBar.showError(null);
    } catch (error) {
      if (error instanceof ApiError && error.status === 400 && this.filter.predicate) this.filterBar.showError(error);
      else notifyError(error, 'The photos did not load');
    }
    document.body.dataset.view = search ? 'search' : collection ? 'collection' : 'timeline';
    grid.element.focus({ preventScroll: true });
  }

  /** Shows the map of the photos' places; a marker opens its photos as a search. */
  async showMap() {
    const map = new MapView(fresh('map'), { open: (search, title) => this.openSearch(search, title) });
    this.map = map;
    $('view-title').textContent = 'Map';
    this.drawViewActions();
    document.body.dataset.view = 'map';
    try {
      await map.load();
    } catch (error) {
      notifyError(error, 'The map did not load');
    }
    map.element.focus({ preventScroll: true });
  }

  openCollection(collection) {
    if (collection.kind === 'search') return this.openSearch(collection.search, collection.title);
    this.search = '';
    $('search').elements.q.value = '';
    this.collection = collection.kind === 'timeline' ? null : collection;
    if (matchMedia('(max-width: 760px)').matches) this.toggleSidebar(false);
    return this.show();
  }

  /** Shows what `search` finds (the timeline again when it is empty), titled `title` when given. */
  openSearch(search, title = '') {
    this.search = search.trim();
    this.searchTitle = title;
    $('search').elements.q.value = this.search;
    if (matchMedia('(max-width: 760px)').matches) this.toggleSidebar(false);
    return this.show();
  }

  /** Offers completions of the last word typed, from the places, albums and filter words the token sees. */
  async suggest(text) {
    const list = $('search-suggestions');
    if (!text.trim()) {
      list.replaceChildren();
      return;
    }
    const asked = (this.suggestionsAsked = text);
    const page = await getData('/v1/search/suggestions' + `?q=${encodeURIComponent(text)}`).catch(() => ({ items: [] }));
    if (asked !== this.suggestionsAsked) return;
    list.replaceChildren(...page.items.map((s) => {
      const option = new Option(s.label, s.search);
      option.dataset.kind = s.kind;
      option.label = `${s.label} · ${s.kind}`;
      return option;
    }));
  }

  applyFilter(value) {
    this.filter = value;
    $('filter-button').classList.toggle('active', value.active);
    if (value.album) this.collection = this.albums.find((a) => a.id === value.album) ?? null;
    else if (this.collection?.kind === 'assetCollection' && this.collection.type === 'album') this.collection = null;
    this.show();
  }

  async loadAlbums() {
    const page = await getData('/v1/albums?limit=1000').catch(() => ({ items: [] }));
    this.albums = page.items;
    this.filterBar.setAlbums(this.albums);
  }

  /** A change from anyone: re-read what is shown; the grid animates the difference. */
  changed(change) {
    clearTimeout(this.indexTimer);
    this.indexTimer = setTimeout(() => this.showIndexProgress(), 2000);
    if (change.detailsUnavailable) {
      this.reload();
      return;
    }
    if (this.map) {
      if (change.assets) this.map.refresh();
    } else if (change.assets && (change.assets.inserted.length || change.assets.updated.length || change.assets.deleted.length)) {
      this.grid.expectInserted(change.assets.inserted.map((id) => id.split('/')[0]));
      this.grid.refresh().then(() => this.selection.keep((id) => this.grid.pageCache.locate(id) !== undefined));
      const open = this.viewer.isOpen && this.viewer.asset?.id;
      if (open && change.assets.updated.some((id) => id.startsWith(open))) this.viewer.show(open);
    }
    const collections = [change.assetCollections, change.collectionLists].some((c) => c && (c.inserted.length || c.updated.length || c.deleted.length));
    if (collections) {
      this.sidebar.load();
      this.loadAlbums();
      if (this.grid && this.collection && change.assetCollections?.updated.some((id) => id.startsWith(this.collection.id))) this.grid.refresh();
    }
  }

  reload() {
    this.sidebar.load();
    this.loadAlbums();
    return this.map ? this.map.refresh() : this.grid.refresh();
  }

  liveState(state) {
    const element = $('live-state');
    element.dataset.state = state;
    element.title = { live: 'Live', reconnecting: 'Reconnecting…' }[state] ?? state;
  }

  // Chrome -------------------------------------------------------------

  connectChrome() {
    $('menu-button').addEventListener('click', () => this.toggleSidebar());
    const search = $('search');
    let typing = 0;
    search.addEventListener('submit', (event) => {
      event.preventDefault();
      this.openSearch(search.elements.q.value);
    });
    search.elements.q.addEventListener('input', (event) => {
      clearTimeout(typing);
      const text = search.elements.q.value;
      // A suggestion picked from the list is a whole search: run it.
      if (/** @type {InputEvent} */ (event).inputType === 'insertReplacementText' || !(/** @type {InputEvent} */ (event).inputType)) {
        if ([...$('search-suggestions').options].some((o) => o.value === text)) return void this.openSearch(text);
      }
      if (!text.trim() && this.search) return void this.openSearch('');
      typing = setTimeout(() => this.suggest(text), 150);
    });
    $('filter-button').addEventListener('click', () => {
      const form = $('filter');
      form.hidden = !form.hidden;
      $('filter-button').setAttribute('aria-expanded', String(!form.hidden));
      if (!form.hidden) form.elements.from.focus();
    });
    $('sign-out').addEventListener('click', async () => {
      this.stream.stop();
      await signOut().catch(() => {});
      location.replace('/');
    });
    $('upload-button').addEventListener('click', () => $('file-input').click());
    $('upload-folder-button').addEventListener('click', () => $('folder-input').click());
    for (const input of [$('file-input'), $('folder-input')]) {
      input.addEventListener('change', () => {
        this.uploader.add([...input.files]);
        input.value = '';
      });
    }
    const zone = $('drop-zone');
    let depth = 0;
    const hasFiles = (event) => [...(event.dataTransfer?.types ?? [])].includes('Files');
    window.addEventListener('dragenter', (event) => {
      if (!hasFiles(event) || this.session.readOnly) return;
      depth += 1;
      zone.hidden = false;
    });
    window.addEventListener('dragleave', (event) => {
      if (!hasFiles(event)) return;
      depth = Math.max(0, depth - 1);
      if (!depth) zone.hidden = true;
    });
    window.addEventListener('dragover', (event) => {
      if (hasFiles(event)) event.preventDefault();
    });
    window.addEventListener('drop', async (event) => {
      if (!hasFiles(event)) return;
      event.preventDefault();
      depth = 0;
      zone.hidden = true;
      if (this.session.readOnly) return;
      this.uploader.add(await droppedFiles(event.dataTransfer));
    });
    document.addEventListener('keydown', (event) => {
      if (this.viewer.isOpen || !this.selection.size) return;
      if (event.key === 'Escape') this.selection.clear();
      else if (ratingForKey(event.key) !== null && this.canRate && !/** @type {HTMLElement} */ (event.target).closest('input, select, textarea')) {
        event.preventDefault();
        this.rateSelection(ratingForKey(event.key));
      }
    });
  }

  /** Whether the open view's assets may be rated: not read-only, not Recently Deleted. */
  get canRate() {
    return !this.session.readOnly && this.collection?.subtype !== 'recentlyDeleted';
  }

  /** Keys 0–5 over a selection, as Lightroom's grid takes them: one change block for all. */
  async rateSelection(rating) {
    const ids = [...this.selection.ids];
    try {
      await actions.setRating(ids, rating);
      notify(rating ? `${ids.length} rated ${stars(rating)}` : `${ids.length} unrated`);
    } catch (error) {
      notifyError(error, 'The rating was not changed');
    }
  }

  toggleSidebar(open) {
    const show = open ?? !document.body.classList.contains('sidebar-open');
    document.body.classList.toggle('sidebar-open', show);
    $('menu-button').setAttribute('aria-expanded', String(show));
  }

  drawViewActions() {
    const bar = $('view-actions');
    bar.replaceChildren();
    const collection = this.collection;
    if (collection && this.session.isOwner && collection.kind === 'assetCollection' && collection.type === 'album') {
      bar.append(button('Share', () => openShareDialog(collection)));
    }
  }

  /** The actions for what is selected, as the open view allows them. */
  drawSelectionBar() {
    const bar = $('selection-bar');
    const count = this.selection.size;
    bar.hidden = count === 0;
    if (!count) return;
    const ids = () => [...this.selection.ids];
    const run = (label, action) => button(label, async () => {
      try {
        await action(ids());
        this.selection.clear();
      } catch (error) {
        if (!(error instanceof Cancelled)) notifyError(error, `${label} failed`);
      }
    });
    const label = document.createElement('span');
    label.className = 'selection-count';
    label.textContent = `${count.toLocaleString()} selected`;
    const items = [label];
    const subtype = this.collection?.subtype;
    if (!this.session.readOnly) {
      if (subtype === 'recentlyDeleted') {
        items.push(run('Restore', (selected) => actions.restoreAssets(selected)));
      } else {
        items.push(run('Favorite', (selected) => actions.setFavorite(selected, true)),
                   run('Unfavorite', (selected) => actions.setFavorite(selected, false)));
        items.push(run('Add keyword', (selected) => this.addKeyword(selected)));
        items.push(subtype === 'allHidden' ? run('Unhide', (selected) => actions.setHidden(selected, false))
                                         : run('Hide', (selected) => actions.setHidden(selected, true)));
        items.push(run('Add to album', (selected) => this.addToAlbum(selected)));
        if (this.collection?.kind === 'assetCollection' && this.collection.type === 'album') {
          items.push(run('Remove from album', (selected) => actions.removeFromAlbum(this.collection.id, selected)));
        }
        items.push(run('Delete', async (selected) => {
          await actions.deleteAssets(selected);
          notify(`${selected.length} moved to Recently Deleted`);
        }));
      }
    }
    items.push(button('Clear selection', () => this.selection.clear()));
    bar.replaceChildren(...items);
  }

  async addKeyword(ids) {
    const keyword = await ask('Add a keyword', { label: 'Keyword', submit: 'Add' });
    if (!keyword) throw new Cancelled();
    await actions.addKeywords(ids, [keyword]);
  }

  async addToAlbum(ids) {
    const choices = [{ value: '', title: 'New album…' }, ...this.albums.map((a) => ({ value: a.id, title: a.title || 'Untitled' }))];
    const answer = await ask('Add to album', { label: '', choices, choiceLabel: 'Album', submit: 'Add' });
    if (!answer) throw new Cancelled();
    if (answer.choice) return actions.addToAlbum(answer.choice, ids);
    const created = await this.sidebar.newAlbum(null, ids);
    if (!created) throw new Cancelled();
    return created;
  }

  /** Dragging cells within an album the user made changes its order (one change block). */
  connectReordering(grid) {
    if (!grid.reorderable) return;
    const element = grid.element;
    let dragged = null;
    element.addEventListener('dragstart', (event) => {
      const cell = event.target.closest('.cell');
      if (!cell) return;
      dragged = this.selection.has(cell.dataset.id) ? [...this.selection.ids] : [cell.dataset.id];
      event.dataTransfer.setData('application/x-openphotokit-assets', dragged.join(','));
      event.dataTransfer.effectAllowed = 'move';
    });
    element.addEventListener('dragover', (event) => {
      if (dragged && event.target.closest('.cell')) event.preventDefault();
    });
    element.addEventListener('drop', async (event) => {
      const target = event.target.closest('.cell');
      if (!dragged || !target) return;
      event.preventDefault();
      event.stopPropagation();
      const moving = dragged;
      dragged = null;
      const offsets = moving.map((id) => grid.columnsOf(id)?.offset).filter((o) => o !== undefined);
      const targetOffset = grid.columnsOf(target.dataset.id)?.offset;
      if (targetOffset === undefined || moving.includes(target.dataset.id)) return;
      const toIndex = targetOffset - offsets.filter((o) => o < targetOffset).length;
      try {
        await actions.moveInAlbum(this.collection.id, moving, toIndex);
      } catch (error) {
        notifyError(error, 'The order was not changed');
      }
    });
    element.addEventListener('dragend', () => { dragged = null; });
  }
}

/** A new, empty copy of an element, without the listeners the previous view put on it. */
function fresh(id) {
  const old = $(id);
  const element = old.cloneNode(false);
  old.replaceWith(element);
  return element;
}

function button(label, action) {
  const element = document.createElement('button');
  element.type = 'button';
  element.textContent = label;
  element.addEventListener('click', action);
  return element;
}

/**
 * The sign-in page; resolves with the session once a token is accepted.
 * With `shareToken` (a share link that has a password), it asks for the
 * password alone.
 */
function showSignIn(shareToken) {
  const page = $('sign-in');
  page.hidden = false;
  const form = page.querySelector('form');
  const error = /** @type {HTMLElement} */ (page.querySelector('.error'));
  const tokenField = /** @type {HTMLInputElement} */ (form.elements.namedItem('token'));
  const passwordField = /** @type {HTMLInputElement} */ (form.elements.namedItem('password'));
  /** @type {HTMLElement} */ (form.querySelector('.token')).hidden = shareToken !== undefined;
  tokenField.required = shareToken === undefined;
  /** @type {HTMLElement} */ (form.querySelector('.password')).hidden = shareToken === undefined;
  passwordField.required = shareToken !== undefined;
  (shareToken === undefined ? tokenField : passwordField).focus();
  return new Promise((resolve) => {
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      error.hidden = true;
      try {
        const session = shareToken === undefined ? await signIn(tokenField.value)
          : await signIn(shareToken, passwordField.value);
        form.reset();
        page.hidden = true;
        resolve(session);
      } catch (failure) {
        error.textContent = shareToken !== undefined && needsPassword(failure) ? 'That is not the password of this share link.'
          : failure.status === 401 ? 'That token is not valid (or it expired or was revoked).' : failure.detail || failure.message;
        error.hidden = false;
      }
    });
  });
}

async function boot() {
  let session = null;
  const share = location.hash.match(/^#share=(.+)$/);
  if (share) {
    history.replaceState(null, '', '/');
    const token = decodeURIComponent(share[1]);
    session = await signIn(token).catch((error) => {
      if (needsPassword(error)) return showSignIn(token);
      notifyError(error, 'This share link does not work');
      return null;
    });
  }
  session ??= await currentSession();
  session ??= await showSignIn();
  // From here on, a refused session (token revoked or expired) starts the page
  // over, which shows the sign-in page.
  whenSessionEnds(() => location.reload());
  document.body.classList.toggle('shared', session.isShare);
  $('app').hidden = false;
  const gallery = new Gallery(session);
  /** @type {any} */ (window).gallery = gallery; // for the browser tests and benchmarks, which read the grid's state
  await gallery.start();
  document.body.dataset.ready = 'true';
}

boot().catch((error) => notifyError(error, 'The gallery did not start'));
