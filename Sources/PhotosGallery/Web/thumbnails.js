// Thumbnail requests, batched: the cells a frame places ask for their
// thumbnails as they are made, and the requests start together once the
// frame is done (the latest URL of each image winning), so that making a
// screen of cells is not interleaved with starting hundreds of downloads.
// An image that left the page before then asks for nothing.

/** @typedef {{ src: string, isConnected: boolean }} ThumbnailImage  What the queue sets: an `<img>`'s source. */

export class ThumbnailQueue {
  /** `schedule` runs a function after the current task (a test gives its own); returns what `cancel` takes. */
  constructor(/** @type {(run: () => void) => unknown} */ schedule = (run) => setTimeout(run),
              /** @type {(handle: unknown) => void} */ cancel = (handle) => clearTimeout(/** @type {any} */ (handle))) {
    /** @type {Map<ThumbnailImage, string>} */
    this.wanted = new Map();
    this.schedule = schedule;
    this.cancelScheduled = cancel;
    /** @type {unknown} */
    this.handle = null;
  }

  /** Asks for `url` in `image`, after the current task. */
  request(/** @type {ThumbnailImage} */ image, /** @type {string} */ url) {
    this.wanted.set(image, url);
    if (this.handle !== null) return;
    this.handle = this.schedule(() => this.flush());
  }

  /** Starts the requests asked for, of the images still on the page. */
  flush() {
    this.handle = null;
    for (const [image, url] of this.wanted) if (image.isConnected) image.src = url;
    this.wanted.clear();
  }

  /** Drops the requests not started yet. */
  cancel() {
    if (this.handle !== null) this.cancelScheduled(this.handle);
    this.handle = null;
    this.wanted.clear();
  }
}
