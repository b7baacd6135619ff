// The full-screen viewer: the preview rendition at once, the original when
// zoomed (when the browser can show its format), video with seeking (the
// server answers Range requests, and converts what browsers cannot play),
// a Live Photo's motion while the pointer rests on LIVE or L is held (a
// Loop or Bounce plays over and over from the start, unless the reader
// asks for reduced motion), ←/→
// through the grid's order, Esc, F for favorite, 0–5 for the rating (as
// Lightroom takes them), Delete, swipes on touch screens, and an info panel
// where the rating, caption and keywords are edited.
import { getData, ApiError } from './api.js';
import { setFavorite, setRating, setCaption, addKeywords, removeKeywords, deleteAssets } from './actions.js';
import { notifyError, notify } from './notices.js';
import { MAXIMUM_RATING, LIVE_PHOTO_EFFECTS, ratingForKey, stars, describeAsset, formatDuration, formatFullDate } from './format.js';

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
    this.liveButton.addEventListener('pointerleave', () => {
      if (!this.effect().moves) this.stopMotion();
    });
    this.favoriteButton = button('Favorite (F)', '♡', () => this.toggleFavorite());
    this.ratingLabel = document.createElement('span');
    this.ratingLabel.className = 'viewer-rating';
    this.toolbar.append(this.ratingLabel);
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
    // An edit made here is shown once: the change stream's echo of it
    // finds the asset as it is already shown, and redraws nothing.
    const text = JSON.stringify(asset);
    if (this.asset?.id === asset.id && this.shownText === text && !this.element.hidden) return;
    this.shownText = text;
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
      media.alt = describeAsset(asset.mediaType, asset.isFavorite, asset.creationDate ? new Date(asset.creationDate) : null, asset.rating);
    }
    media.className = 'viewer-media';
    media.dataset.id = asset.id;
    this.stage.replaceChildren(media);
    const effect = this.effect();
    this.liveButton.hidden = asset.mediaType !== 'image' || !asset.mediaSubtypes.includes('photoLive') || asset.playbackVariation === 'longExposure';
    this.liveButton.textContent = effect.name.toUpperCase();
    if (!this.liveButton.hidden && effect.moves && !matchMedia('(prefers-reduced-motion: reduce)').matches) this.playMotion();
    this.favoriteButton.textContent = asset.isFavorite ? '♥' : '♡';
    this.favoriteButton.setAttribute('aria-pressed', String(asset.isFavorite));
    this.ratingLabel.textContent = stars(asset.rating);
    this.ratingLabel.setAttribute('aria-label', asset.rating ? `${asset.rating} of ${MAXIMUM_RATING} stars` : 'Not rated');
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

  /** The shown Live Photo's effect (LIVE_PHOTO_EFFECTS), `none` for any other asset. */
  effect() {
    return LIVE_PHOTO_EFFECTS[this.asset?.playbackVariation] ?? LIVE_PHOTO_EFFECTS.none;
  }

  /**
   * Plays a Live Photo's motion over its still, muted: once, or with a
   * Loop over and over, or with a Bounce forward and back (browsers do not
   * play backwards, so the way back is stepped frame by frame).
   */
  playMotion() {
    if (!this.asset || this.liveButton.hidden || this.stage.querySelector('.viewer-motion')) return;
    const motion = document.createElement('video');
    motion.className = 'viewer-media viewer-motion';
    motion.muted = true;
    motion.playsInline = true;
    motion.autoplay = true;
    motion.setAttribute('aria-label', `Live Photo motion${this.effect().moves ? `, ${this.effect().name}` : ''}`);
    const variation = this.asset.playbackVariation;
    if (variation === 'autoloop') motion.loop = true;
    else if (variation === 'mirror') motion.addEventListener('ended', () => playBackwards(motion));
    else motion.addEventListener('ended', () => this.stopMotion());
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

  /** Sets the shown asset's rating (0 clears it), as keys 0–5 and the info panel's stars do. */
  async rate(rating) {
    const id = this.asset?.id;
    if (id) await this.edit(id, 'The rating was not changed', () => setRating([id], rating));
  }

  /** Runs one change to asset `id`, then shows it as the library now has it, if it is still the one shown. */
  async edit(id, failure, change) {
    if (this.readOnly) return;
    try {
      await change();
      if (this.asset?.id === id) await this.show(id);
    } catch (error) {
      notifyError(error, failure);
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
    const list = document.createElement('dl');
    const entry = (name, ...content) => {
      const term = document.createElement('dt');
      term.textContent = name;
      const detail = document.createElement('dd');
      detail.append(...content);
      list.append(term, detail);
      return detail;
    };
    if (asset.playbackVariation && asset.playbackVariation !== 'none') entry('Effect', this.effect().name);
    entry('Rating', this.readOnly ? (stars(asset.rating) || 'Not rated') : this.ratingControl(asset));
    entry('Caption', this.readOnly ? (asset.caption || 'None') : this.captionControl(asset));
    entry('Keywords', this.keywordsControl(asset));
    entry('Date', asset.creationDate ? formatFullDate(new Date(asset.creationDate), asset.creationTimeZoneOffset) : 'No date');
    entry('Place', asset.location ? `${asset.location.latitude.toFixed(5)}, ${asset.location.longitude.toFixed(5)}` : 'No location');
    entry('Camera', [asset.cameraMake, asset.cameraModel].filter(Boolean).join(' ') || 'Unknown');
    entry('Size', `${asset.pixelWidth} × ${asset.pixelHeight} (${((asset.pixelWidth * asset.pixelHeight) / 1e6).toFixed(1)} MP)`);
    if (asset.mediaType === 'video') entry('Duration', formatDuration(asset.duration));
    const file = entry('File', '…');
    const albums = entry('Albums', '…');
    // A redraw (after an edit here, or a change anywhere) keeps the field
    // being typed in focused with what it holds, so that keywords can be
    // typed one after another and a caption being written is not lost.
    const typing = /** @type {HTMLInputElement | null} */ (this.info.contains(document.activeElement) ? document.activeElement : null);
    this.info.replaceChildren(list);
    const field = typing?.name && /** @type {HTMLInputElement | null} */ (this.info.querySelector(`[name="${typing.name}"]`));
    if (field) {
      field.value = typing.value;
      field.focus();
    }
    try {
      const [resources, containing] = await Promise.all([getData(`/v1/assets/${asset.id}/resources`), getData(`/v1/assets/${asset.id}/albums`)]);
      if (this.asset !== asset) return;
      file.textContent = resources[0]?.originalFilename ?? 'None';
      albums.textContent = containing.items.map((a) => a.title).join(', ') || 'None';
    } catch (error) {
      notifyError(error, 'Details are missing');
    }
  }

  /** Five star buttons; the current rating's star clears it, as in Lightroom. */
  ratingControl(asset) {
    const group = document.createElement('div');
    group.className = 'rating-control';
    group.setAttribute('role', 'group');
    group.setAttribute('aria-label', `Rating (keys 0–${MAXIMUM_RATING})`);
    for (let star = 1; star <= MAXIMUM_RATING; star++) {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = star <= asset.rating ? '★' : '☆';
      b.setAttribute('aria-label', `${star} star${star === 1 ? '' : 's'}`);
      b.setAttribute('aria-pressed', String(star === asset.rating));
      b.addEventListener('click', () => this.rate(star === asset.rating ? 0 : star));
      group.append(b);
    }
    return group;
  }

  /** The caption, saved when it loses focus or on Enter (Shift+Enter breaks the line); an empty one clears it. */
  captionControl(asset) {
    const field = document.createElement('textarea');
    field.name = 'caption';
    field.rows = 2;
    field.value = asset.caption ?? '';
    field.placeholder = 'Add a caption';
    field.setAttribute('aria-label', 'Caption');
    const save = () => {
      const text = field.value.trim();
      if (text !== (asset.caption ?? '')) this.edit(asset.id, 'The caption was not saved', () => setCaption(asset.id, text));
    };
    field.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && !event.shiftKey) {
        event.preventDefault();
        field.blur();
      } else if (event.key === 'Escape') {
        event.stopPropagation();
        field.value = asset.caption ?? '';
        field.blur();
      }
    });
    field.addEventListener('blur', save);
    return field;
  }

  /** The keywords, each removable, and a field adding one on Enter. */
  keywordsControl(asset) {
    const list = document.createElement('ul');
    list.className = 'keywords';
    for (const keyword of asset.keywords ?? []) {
      const item = document.createElement('li');
      item.textContent = keyword;
      if (!this.readOnly) {
        const remove = document.createElement('button');
        remove.type = 'button';
        remove.textContent = '×';
        remove.setAttribute('aria-label', `Remove keyword ${keyword}`);
        remove.addEventListener('click', () => this.edit(asset.id, 'The keyword was not removed', () => removeKeywords([asset.id], [keyword])));
        item.append(remove);
      }
      list.append(item);
    }
    if (this.readOnly) return list.childElementCount ? list : 'None';
    const field = document.createElement('input');
    field.name = 'keyword';
    field.placeholder = 'Add a keyword';
    field.autocomplete = 'off';
    field.setAttribute('aria-label', 'Add a keyword');
    field.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') {
        event.stopPropagation();
        field.blur();
      }
      if (event.key !== 'Enter') return;
      event.preventDefault();
      const keyword = field.value.trim();
      field.value = '';
      if (keyword) this.edit(asset.id, 'The keyword was not added', () => addKeywords([asset.id], [keyword]));
    });
    const wrapper = document.createElement('div');
    wrapper.append(list, field);
    return wrapper;
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
    const rating = ratingForKey(event.key);
    if (rating !== null) actions[event.key] = () => this.rate(rating);
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

/**
 * Plays `video` from its end back to its start at its own speed, a frame
 * per animation frame, then forward again: a Bounce. Stops once the video
 * leaves the page.
 * @param {HTMLVideoElement} video
 */
function playBackwards(video) {
  let last = performance.now();
  const step = (now) => {
    if (!video.isConnected) return;
    video.currentTime = Math.max(0, video.currentTime - (now - last) / 1000);
    last = now;
    if (video.currentTime > 0) requestAnimationFrame(step);
    else video.play().catch(() => {});
  };
  requestAnimationFrame(step);
}
