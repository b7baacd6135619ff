// The map of the library's photos: the world's countries drawn from the
// server's own outlines (nothing loaded from elsewhere), or the owner's
// tile server when one is set, with the token's located photos gathered
// into markers by the server (/v1/map/clusters) for what is on screen. A
// marker opens its photos in the grid (its search, `within:…`); dragging
// pans, the wheel, pinching, the buttons and + or - zoom.
import { getData, query } from './api.js';

/** Square tiles of this many CSS pixels, as every web map's: zoom z is 2^z tiles wide. */
const TILE = 256;
/** Markers are about this far apart: the server's cells are this many pixels wide. */
const CELL = 72;
const MIN_ZOOM = 1;
const MAX_ZOOM = 17;
/** Web Mercator stops at this latitude, where the map is square. */
const MAX_LATITUDE = 85.0511;

/** Where a longitude falls across the world, 0 (west) to 1 (east). */
export const unitX = (longitude) => (longitude + 180) / 360;
/** Where a latitude falls down the world, 0 (north) to 1 (south), in Web Mercator. */
export function unitY(latitude) {
  const phi = (Math.max(-MAX_LATITUDE, Math.min(MAX_LATITUDE, latitude)) * Math.PI) / 180;
  return (1 - Math.log(Math.tan(phi) + 1 / Math.cos(phi)) / Math.PI) / 2;
}
export const longitudeAt = (x) => x * 360 - 180;
export const latitudeAt = (y) => (Math.atan(Math.sinh(Math.PI * (1 - 2 * y))) * 180) / Math.PI;

export class MapView {
  /**
   * @param {HTMLElement} element where the map is drawn
   * @param {{ open: (search: string, title: string) => void }} options what a marker does
   */
  constructor(element, { open }) {
    this.element = element;
    this.open = open;
    this.zoom = 2;
    /** The view's centre, as fractions of the world (unitX, unitY). */
    this.center = { x: 0.5, y: 0.5 };
    this.countries = [];
    this.settings = { outlines: false };
    this.clusters = [];
    /** The markers on the map, by their cluster's search. */
    this.markerElements = new Map();
    this.requested = 0;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer = undefined;
    element.replaceChildren();
    element.classList.add('map');
    element.tabIndex = 0;
    element.setAttribute('role', 'application');
    element.setAttribute('aria-label', 'Map of the photos: drag to move, + and - to zoom');
    this.tiles = this.layer('map-tiles');
    this.canvas = document.createElement('canvas');
    this.canvas.className = 'map-outlines';
    element.append(this.canvas);
    this.markers = this.layer('map-markers');
    this.status = this.layer('map-status');
    this.status.setAttribute('role', 'status');
    const controls = this.layer('map-controls');
    controls.append(this.control('Zoom in', '+', () => this.zoomBy(1)), this.control('Zoom out', '−', () => this.zoomBy(-1)));
    this.attribution = this.layer('map-attribution');
    this.connect();
  }

  /** Loads the settings, the outlines and the markers, and frames the photos. */
  async load() {
    this.settings = await getData('/v1/map');
    this.element.dataset.tiles = this.settings.tileTemplate ? 'owner' : 'none';
    this.attribution.textContent = this.settings.attribution ?? '';
    this.attribution.hidden = !this.settings.attribution;
    if (this.settings.outlines) this.countries = (await getData('/v1/map/outlines')).countries;
    this.element.dataset.countries = String(this.countries.length);
    const world = await getData('/v1/map/clusters' + query({ south: -90, west: -180, north: 90, east: 180, cell: 5, limit: 5000 }));
    this.frame(world.items);
    this.draw();
    await this.refresh();
  }

  destroy() {
    clearTimeout(this.timer);
    this.resizeObserver?.disconnect();
  }

  /** Zooms and centres the view on the clusters' boxes (the whole world when there are none). */
  frame(clusters) {
    if (!clusters.length) return;
    const west = Math.min(...clusters.map((c) => c.west)), east = Math.max(...clusters.map((c) => c.east));
    const south = Math.min(...clusters.map((c) => c.south)), north = Math.max(...clusters.map((c) => c.north));
    const width = Math.max(unitX(east) - unitX(west), 1e-6), height = Math.max(unitY(south) - unitY(north), 1e-6);
    const { width: pixelsWide, height: pixelsHigh } = this.size();
    const fit = Math.log2(Math.min((pixelsWide * 0.8) / (width * TILE), (pixelsHigh * 0.8) / (height * TILE)));
    this.zoom = Math.max(MIN_ZOOM, Math.min(12, Math.floor(fit)));
    this.center = { x: (unitX(west) + unitX(east)) / 2, y: (unitY(north) + unitY(south)) / 2 };
    this.clamp();
  }

  size() {
    return { width: this.element.clientWidth || 1, height: this.element.clientHeight || 1 };
  }

  /** The world's width in CSS pixels at the current zoom. */
  get worldSize() {
    return TILE * 2 ** this.zoom;
  }

  /** Where a place is on screen, in CSS pixels from the top left. */
  project(latitude, longitude) {
    const { width, height } = this.size();
    return {
      x: (unitX(longitude) - this.center.x) * this.worldSize + width / 2,
      y: (unitY(latitude) - this.center.y) * this.worldSize + height / 2,
    };
  }

  /** Keeps the world on screen: the centre moves no further than the world's edges allow. */
  clamp() {
    const { width, height } = this.size();
    const within = (value, pixels) => {
      const half = pixels / 2 / this.worldSize;
      return half >= 0.5 ? 0.5 : Math.max(half, Math.min(1 - half, value));
    };
    this.center = { x: within(this.center.x, width), y: within(this.center.y, height) };
  }

  /** Zooms by `steps` (fractions too), keeping the point under (`x`, `y`) in place. */
  zoomBy(steps, x = this.size().width / 2, y = this.size().height / 2) {
    const zoom = Math.max(MIN_ZOOM, Math.min(MAX_ZOOM, this.zoom + steps));
    if (zoom === this.zoom) return;
    const { width, height } = this.size();
    const before = { x: this.center.x + (x - width / 2) / this.worldSize, y: this.center.y + (y - height / 2) / this.worldSize };
    this.zoom = zoom;
    this.center = { x: before.x - (x - width / 2) / this.worldSize, y: before.y - (y - height / 2) / this.worldSize };
    this.changed();
  }

  panBy(dx, dy) {
    this.center = { x: this.center.x - dx / this.worldSize, y: this.center.y - dy / this.worldSize };
    this.changed();
  }

  /** Redraws at once and asks for the markers of the new view a moment after it stops moving. */
  changed() {
    this.clamp();
    this.draw();
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.refresh(), 120);
  }

  connect() {
    const pointers = new Map();
    let pinch = 0;
    this.element.addEventListener('pointerdown', (event) => {
      if (/** @type {Element} */ (event.target).closest('button')) return;
      pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
      this.element.setPointerCapture?.(event.pointerId);
      this.element.classList.add('dragging');
    });
    this.element.addEventListener('pointermove', (event) => {
      const last = pointers.get(event.pointerId);
      if (!last) return;
      const now = { x: event.clientX, y: event.clientY };
      pointers.set(event.pointerId, now);
      if (pointers.size === 2) {
        const [a, b] = [...pointers.values()];
        const distance = Math.hypot(a.x - b.x, a.y - b.y);
        const box = this.element.getBoundingClientRect();
        if (pinch) this.zoomBy(Math.log2(distance / pinch), (a.x + b.x) / 2 - box.left, (a.y + b.y) / 2 - box.top);
        pinch = distance;
      } else {
        this.panBy(now.x - last.x, now.y - last.y);
      }
    });
    const release = (event) => {
      pointers.delete(event.pointerId);
      if (pointers.size < 2) pinch = 0;
      if (!pointers.size) this.element.classList.remove('dragging');
    };
    this.element.addEventListener('pointerup', release);
    this.element.addEventListener('pointercancel', release);
    this.element.addEventListener('wheel', (event) => {
      event.preventDefault();
      const box = this.element.getBoundingClientRect();
      this.zoomBy(-Math.sign(event.deltaY) * 0.5, event.clientX - box.left, event.clientY - box.top);
    }, { passive: false });
    this.element.addEventListener('keydown', (event) => {
      const steps = { '+': 1, '=': 1, '-': -1 }[event.key];
      const moves = { ArrowLeft: [80, 0], ArrowRight: [-80, 0], ArrowUp: [0, 80], ArrowDown: [0, -80] }[event.key];
      if (steps) this.zoomBy(steps);
      else if (moves) this.panBy(moves[0], moves[1]);
      else return;
      event.preventDefault();
    });
    this.resizeObserver = new ResizeObserver(() => this.changed());
    this.resizeObserver.observe(this.element);
  }

  /** Draws the base (tiles or outlines) and places the markers already known. */
  draw() {
    const { width, height } = this.size();
    const ratio = window.devicePixelRatio || 1;
    this.canvas.width = Math.round(width * ratio);
    this.canvas.height = Math.round(height * ratio);
    this.canvas.style.width = `${width}px`;
    this.canvas.style.height = `${height}px`;
    const context = this.canvas.getContext('2d');
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    context.clearRect(0, 0, width, height);
    const tiled = Boolean(this.settings.tileTemplate);
    if (tiled) this.drawTiles();
    context.lineWidth = 0.75;
    context.strokeStyle = tiled ? '#0006' : '#5b6472';
    context.fillStyle = '#2a2f37';
    for (const country of this.countries) {
      const path = new Path2D();
      for (const ring of country.rings) {
        for (let i = 0; i < ring.length; i += 2) {
          const { x, y } = this.project(ring[i + 1], ring[i]);
          if (i === 0) path.moveTo(x, y);
          else path.lineTo(x, y);
        }
        path.closePath();
      }
      if (!tiled) context.fill(path, 'evenodd');
      context.stroke(path);
    }
    this.placeMarkers();
  }

  /** The owner's tiles for the view, as images from their server (which the page's policy allows). */
  drawTiles() {
    const { width, height } = this.size();
    const z = Math.round(this.zoom);
    const count = 2 ** z;
    const scale = this.worldSize / (count * TILE);
    const size = TILE * scale;
    const left = width / 2 - this.center.x * this.worldSize, top = height / 2 - this.center.y * this.worldSize;
    const wanted = new Map();
    for (let x = Math.max(0, Math.floor(-left / size)); x < Math.min(count, Math.ceil((width - left) / size)); x++) {
      for (let y = Math.max(0, Math.floor(-top / size)); y < Math.min(count, Math.ceil((height - top) / size)); y++) {
        const url = this.settings.tileTemplate.replace('{z}', String(z)).replace('{x}', String(x)).replace('{y}', String(y));
        wanted.set(url, { left: left + x * size, top: top + y * size });
      }
    }
    const kept = new Map([...this.tiles.children].map((tile) => [/** @type {HTMLImageElement} */ (tile).dataset.url, tile]));
    for (const [url, tile] of kept) if (!wanted.has(url)) tile.remove();
    for (const [url, place] of wanted) {
      let tile = /** @type {HTMLImageElement} */ (kept.get(url));
      if (!tile) {
        tile = document.createElement('img');
        tile.alt = '';
        tile.dataset.url = url;
        tile.src = url;
        this.tiles.append(tile);
      }
      tile.style.transform = `translate(${place.left}px, ${place.top}px)`;
      tile.style.width = tile.style.height = `${size}px`;
    }
  }

  /** Asks the server for the markers of what is on screen. */
  async refresh() {
    const { width, height } = this.size();
    const half = { x: width / 2 / this.worldSize, y: height / 2 / this.worldSize };
    const bounds = {
      south: latitudeAt(Math.min(1, this.center.y + half.y)),
      west: longitudeAt(Math.max(0, this.center.x - half.x)),
      north: latitudeAt(Math.max(0, this.center.y - half.y)),
      east: longitudeAt(Math.min(1, this.center.x + half.x)),
    };
    // Past Web Mercator's edge the map shows nothing, but photos taken there still belong to its edge.
    if (bounds.north >= MAX_LATITUDE - 1e-6) bounds.north = 90;
    if (bounds.south <= -MAX_LATITUDE + 1e-6) bounds.south = -90;
    const cell = Math.min(360, Math.max(0.0001, (CELL * 360) / this.worldSize));
    const request = ++this.requested;
    try {
      const round = (value) => Math.round(value * 1e6) / 1e6;
      const page = await getData('/v1/map/clusters' + query({
        south: round(bounds.south), west: round(bounds.west), north: round(bounds.north), east: round(bounds.east), cell: round(cell), limit: 1000,
      }));
      if (request !== this.requested) return;
      this.clusters = page.items;
      this.status.textContent = page.items.length ? '' : 'No photos with a place here';
      this.status.hidden = Boolean(page.items.length);
      this.placeMarkers();
      this.element.dataset.ready = 'true';
    } catch (error) {
      if (request !== this.requested) return;
      this.status.textContent = `The map's photos did not load: ${error.message}`;
      this.status.hidden = false;
    }
  }

  /**
   * One button per cluster, at its photos' mean position, with its cover
   * and count; kept while the map moves (only their places change), made
   * anew for the clusters a refresh brings.
   */
  placeMarkers() {
    const current = new Map();
    for (const cluster of this.clusters) {
      let marker = this.markerElements.get(cluster.search);
      if (!marker) {
        marker = this.marker(cluster);
        this.markers.append(marker);
      }
      const { x, y } = this.project(cluster.latitude, cluster.longitude);
      marker.style.transform = `translate(${x}px, ${y}px)`;
      current.set(cluster.search, marker);
    }
    for (const [search, marker] of this.markerElements) if (!current.has(search)) marker.remove();
    this.markerElements = current;
  }

  marker(cluster) {
    const marker = document.createElement('button');
    marker.type = 'button';
    marker.className = 'map-marker';
    marker.dataset.count = String(cluster.assetCount);
    marker.dataset.search = cluster.search;
    const label = cluster.assetCount === 1 ? '1 photo' : `${cluster.assetCount.toLocaleString()} photos`;
    marker.setAttribute('aria-label', `${label} here`);
    marker.title = label;
    const cover = document.createElement('img');
    cover.alt = '';
    cover.src = `/v1/assets/${cluster.cover}/thumbnail`;
    const count = document.createElement('span');
    count.className = 'map-count';
    count.textContent = cluster.assetCount.toLocaleString();
    marker.append(cover, count);
    marker.addEventListener('click', () => this.open(cluster.search, `${label} on the map`));
    return marker;
  }

  layer(className) {
    const layer = document.createElement('div');
    layer.className = className;
    this.element.append(layer);
    return layer;
  }

  control(label, text, action) {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = text;
    button.title = label;
    button.setAttribute('aria-label', label);
    button.addEventListener('click', action);
    return button;
  }
}
