// The full-screen viewer: the preview rendition at once, the original when
// zoomed (when the browser can show its format), video with seeking (the
// server answers Range requests, and converts what browsers cannot play),
// a Live Photo's motion while the pointer rests on LIVE or L is held, ←/→
// through the grid's order, Esc, F for favorite, Delete, swipes on touch
// screens, and an info panel.
import { getData, ApiError } from './api.js';
import { setFavorite, deleteAssets } from './actions.js';
import { notifyError, notify } from './notices.js';
import { describeAsset, formatDuration, formatFullDate } from './format.js';

const browserFormats = ['public.jpeg', 'public.png', 'com.compuserve.gif', 'org.webmproject.webp', 'public.avif'];
/** How often, and how many times, a video still being converted is asked for again. */
const conversionRetry = { every: 10_000, times: 30 };

export class Viewer {
  constructor(element, { readOnly }) {
    this.element = element;
    this.readOnly = readOnly;
    this.grid = null;
    this.asset = null;
    this.build();
  }

  build() {
    this.element.replaceChildren();
    this.element.setAttribute('role', 'dialog');
    this.element.setAttribute('aria-modal', 'true');
    this.element.setAttribute('aria-label', 'Viewer');
    this.element.hidden = true;
    this.stage = div('viewer-stage');
    this.toolbar = div('viewer-toolbar');
    const button = (label, text, action) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = text;
      b.setAttribute('aria-label', label);
      b.title = label;
      b.addEventListener('click', action);
      this.toolbar.append(b);
      return b;
    };
    button('Close (Esc)', '✕', () => this.close());
    button('Previous (←)', '‹', () => this.step(-1));
    button('Next (→)', '›', () => this.step(1));
    button('Zoom (Z)', '⤢', () => this.toggleZoom());
    this.liveButton = button('Live Photo: rest the pointer here, or hold L, to play it', 'LIVE', () => this.playMotion());
    this.liveButton.classList.add('viewer-live');
    this.liveButton.addEventListener('pointerenter', () => this.playMotion());
    this.liveButton.addEventListener('pointerleave', () => this.stopMotion());
    this.favoriteButton = button('Favorite (F)', '♡', () => this.toggleFavorite());
    this.deleteButton = button('Delete (Delete)', 'Delete', () => this.remove());
    button('Info (I)', 'Info', () => this.toggleInfo());
    this.favoriteButton.hidden = this.deleteButton.hidden = this.readOnly;
    this.info = document.createElement('aside');
    this.info.className = 'viewer-info';
    this.info.hidden = true;
    this.element.append(this.stage, this.toolbar, this.info);
    this.element.addEventListener('keydown', (event) => this.key(event));
    this.element.addEventListener('keyup', (event) => {
      if (event.key === 'l' || event.key === 'L') this.stopMotion();
    });
    let swipe = null;
    this.stage.addEventListener('pointerdown', (event) => {
      if (event.pointerType !== 'mouse') swipe = { x: event.clientX, y: event.clientY };
    });
    this.stage.addEventListener('pointerup', (event) => {
      if (!swipe) return;
      const dx = event.clientX - swipe.x, dy = event.clientY - swipe.y;
      swipe = null;
      if (Math.abs(dx) > 50 && Math.abs(dx) > Math.abs(dy) * 1.5) this.step(dx < 0 ? 1 : -1);
      else if (dy > 90 && Math.abs(dy) > Math.abs(dx) * 1.5) this.close();
    });
    this.stage.addEventListener('dblclick', () => this.toggleZoom());
  }

  /** Opens `id` from `grid`, whose order ←/→ follow. */
  async open(id, grid) {
    this.grid = grid;
    this.returnFocus = /** @type {HTMLElement | null} */ (document.activeElement);
    this.element.hidden = false;
    document.body.classList.add('viewing');
    this.element.focus();
    await this.show(id);
  }

  close() {
    this.element.hidden = true;
    document.body.classList.remove('viewing');
    this.stage.replaceChildren();
    this.asset = null;
    this.returnFocus?.focus?.();
  }

  get isOpen() {
    return !this.element.hidden;
  }

  async show(id) {
    let asset;
    try {
      asset = await getData(`/v1/assets/${id}`);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return this.close();
      return notifyError(error, 'The photo cannot be shown');
    }
    this.asset = asset;
    this.zoomed = false;
    this.element.classList.remove('zoomed');
    const preview = `/v1/assets/${asset.id}/preview?v=${asset.contentVersion}`;
    let media;
    if (asset.mediaType === 'video') {
      media = document.createElement('video');
      media.controls = true;
      media.preload = 'metadata';
      media.poster = preview;
      this.playWhenConverted(media, `/v1/assets/${asset.id}/video?v=${asset.contentVersion}`, asset.id);
      media.setAttribute('aria-label', `Video, ${formatDuration(asset.duration)}`);
    } else {
      media = document.createElement('img');
      media.src = preview;
      media.alt = describeAsset(asset.mediaType, asset.isFavorite, asset.creationDate ? new Date(asset.creationDate) : null);
    }
    media.className = 'viewer-media';
    media.dataset.id = asset.id;
    this.stage.replaceChildren(media);
    this.liveButton.hidden = asset.mediaType !== 'image' || !asset.mediaSubtypes.includes('photoLive');
    this.favoriteButton.textContent = asset.isFavorite ? '♥' : '♡';
    this.favoriteButton.setAttribute('aria-pressed', String(asset.isFavorite));
    if (!this.info.hidden) this.fillInfo();
    this.element.dataset.id = asset.id;
  }

  /**
   * Loads `url` into `video`. A video browsers cannot play is converted by
   * the server first, which answers 503 meanwhile: it is asked for again
   * every few seconds while the viewer still shows `id`.
   */
  playWhenConverted(video, url, id) {
    let tries = 0;
    video.addEventListener('error', () => {
      if (this.asset?.id !== id || ++tries > conversionRetry.times) return;
      if (tries === 1) notify('This video is being converted for the browser; it plays in a moment.');
      setTimeout(() => {
        if (this.asset?.id === id) video.src = url;
      }, conversionRetry.every);
    });
    video.src = url;
  }

  /** Plays a Live Photo's motion over its still, muted, once. */
  playMotion() {
    if (!this.asset || this.liveButton.hidden || this.stage.querySelector('.viewer-motion')) return;
    const motion = document.createElement('video');
    motion.className = 'viewer-media viewer-motion';
    motion.muted = true;
    motion.playsInline = true;
    motion.autoplay = true;
    motion.setAttribute('aria-label', 'Live Photo motion');
    motion.addEventListener('ended', () => this.stopMotion());
    motion.addEventListener('error', () => this.stopMotion());
    motion.src = `/v1/assets/${this.asset.id}/motion?v=${this.asset.contentVersion}`;
    this.stage.append(motion);
  }

  stopMotion() {
    this.stage.querySelector('.viewer-motion')?.remove();
  }

  async step(delta) {
    if (!this.asset || !this.grid) return;
    const next = await this.grid.neighbor(this.asset.id, delta);
    if (next) await this.show(next);
  }

  toggleZoom() {
    const image = this.stage.querySelector('img');
    if (!image || !this.asset) return;
    this.zoomed = !this.zoomed;
    this.element.classList.toggle('zoomed', this.zoomed);
    if (this.zoomed && browserFormats.includes(this.asset.contentType) && !this.asset.hasAdjustments) {
      image.src = `/v1/assets/${this.asset.id}/original`;
    }
  }

  async toggleFavorite() {
    if (this.readOnly || !this.asset) return;
    const asset = this.asset;
    try {
      await setFavorite([asset.id], !asset.isFavorite);
      if (this.asset?.id === asset.id) await this.show(asset.id);
    } catch (error) {
      notifyError(error, 'Favorite was not changed');
    }
  }

  async remove() {
    if (this.readOnly || !this.asset) return;
    const id = this.asset.id;
    const next = (await this.grid?.neighbor(id, 1)) ?? (await this.grid?.neighbor(id, -1));
    try {
      await deleteAssets([id]);
      notify('Moved to Recently Deleted');
      if (next) await this.show(next);
      else this.close();
    } catch (error) {
      notifyError(error, 'The photo was not deleted');
    }
  }

  toggleInfo() {
    this.info.hidden = !this.info.hidden;
    if (!this.info.hidden) this.fillInfo();
  }

  async fillInfo() {
    const asset = this.asset;
    const rows = [];
    const add = (name, value) => value && rows.push([name, value]);
    add('Date', asset.creationDate ? formatFullDate(new Date(asset.creationDate), asset.creationTimeZoneOffset) : 'No date');
    add('Place', asset.location ? `${asset.location.latitude.toFixed(5)}, ${asset.location.longitude.toFixed(5)}` : 'No location');
    add('Camera', [asset.cameraMake, asset.cameraModel].filter(Boolean).join(' ') || 'Unknown');
    add('Size', `${asset.pixelWidth} × ${asset.pixelHeight} (${((asset.pixelWidth * asset.pixelHeight) / 1e6).toFixed(1)} MP)`);
    if (asset.mediaType === 'video') add('Duration', formatDuration(asset.duration));
    this.renderInfo(rows, 'Albums', '…');
    try {
      const [resources, albums] = await Promise.all([getData(`/v1/assets/${asset.id}/resources`), getData(`/v1/assets/${asset.id}/albums`)]);
      if (this.asset !== asset) return;
      if (resources[0]) rows.push(['File', resources[0].originalFilename]);
      this.renderInfo(rows, 'Albums', albums.items.map((a) => a.title).join(', ') || 'None');
    } catch (error) {
      notifyError(error, 'Details are missing');
    }
  }

  renderInfo(rows, lastName, lastValue) {
    const list = document.createElement('dl');
    for (const [name, value] of [...rows, [lastName, lastValue]]) {
      const term = document.createElement('dt');
      term.textContent = name;
      const detail = document.createElement('dd');
      detail.textContent = value;
      list.append(term, detail);
    }
    this.info.replaceChildren(list);
  }

  key(event) {
    if (event.target.closest('input, select, textarea')) return;
    const actions = {
      Escape: () => (this.zoomed ? this.toggleZoom() : this.close()),
      ArrowLeft: () => this.step(-1),
      ArrowRight: () => this.step(1),
      f: () => this.toggleFavorite(),
      F: () => this.toggleFavorite(),
      Delete: () => this.remove(),
      i: () => this.toggleInfo(),
      z: () => this.toggleZoom(),
      l: () => this.playMotion(),
      L: () => this.playMotion(),
    };
    const action = actions[event.key];
    if (!action) return;
    event.preventDefault();
    action();
  }
}

function div(className) {
  const element = document.createElement('div');
  element.className = className;
  return element;
}
