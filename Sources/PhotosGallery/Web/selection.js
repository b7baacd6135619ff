// Which assets are selected, and the pointer gestures that select them:
// a click on a cell's check (or any click once something is selected),
// shift-click for a range in the grid's order, and dragging a rectangle.

export class Selection extends EventTarget {
  constructor() {
    super();
    this.ids = new Set();
    this.last = null;
  }

  has(id) {
    return this.ids.has(id);
  }

  get size() {
    return this.ids.size;
  }

  toggle(id) {
    if (this.ids.has(id)) this.ids.delete(id);
    else this.ids.add(id);
    this.last = id;
    this.changed();
  }

  add(ids) {
    for (const id of ids) this.ids.add(id);
    this.changed();
  }

  set(ids) {
    this.ids = new Set(ids);
    this.changed();
  }

  clear() {
    if (!this.ids.size) return;
    this.ids.clear();
    this.last = null;
    this.changed();
  }

  /** Forgets ids that are no longer shown (deleted elsewhere, say). */
  keep(predicate) {
    const before = this.ids.size;
    for (const id of this.ids) if (!predicate(id)) this.ids.delete(id);
    if (this.ids.size !== before) this.changed();
  }

  changed() {
    this.dispatchEvent(new Event('change'));
  }
}

/**
 * Clicks and drags on the grid's cells: `open(id)` for a plain click with
 * nothing selected, selection otherwise.
 */
export function connectSelection(grid, selection, open) {
  const element = grid.element;
  element.addEventListener('click', (event) => {
    const cell = event.target.closest('.cell');
    if (!cell || cell.disabled || suppressClick) return;
    const id = cell.dataset.id;
    if (event.shiftKey && selection.last) {
      selection.add(grid.range(selection.last, id));
      selection.last = id;
    } else if (event.target.closest('.check') || event.ctrlKey || event.metaKey || selection.size) {
      selection.toggle(id);
    } else {
      open(id);
    }
  });
  selection.addEventListener('change', () => grid.schedule());

  // A rectangle dragged from a gap (or from a cell while selecting) selects what it touches.
  let drag = null;
  let suppressClick = false;
  const band = document.createElement('div');
  band.className = 'selection-band';
  element.addEventListener('pointerdown', (event) => {
    if (event.pointerType !== 'mouse' || event.button !== 0) return;
    const onCell = event.target.closest('.cell');
    if (onCell && !selection.size && !event.target.closest('.check')) return;
    if (onCell?.draggable) return;
    const bounds = element.getBoundingClientRect();
    drag = { x: event.clientX - bounds.left, y: event.clientY - bounds.top + grid.pos, before: new Set(selection.ids), moved: false };
    suppressClick = false;
  });
  element.addEventListener('pointermove', (event) => {
    if (!drag) return;
    const bounds = element.getBoundingClientRect();
    const x = event.clientX - bounds.left, y = event.clientY - bounds.top + grid.pos;
    if (!drag.moved && Math.hypot(x - drag.x, y - drag.y) < 6) return;
    if (!drag.moved) {
      drag.moved = true;
      element.setPointerCapture(event.pointerId);
      element.append(band);
    }
    const left = Math.min(x, drag.x), top = Math.min(y, drag.y);
    const right = Math.max(x, drag.x), bottom = Math.max(y, drag.y);
    Object.assign(band.style, { left: `${left}px`, top: `${top - grid.pos}px`, width: `${right - left}px`, height: `${bottom - top}px` });
    const touched = new Set(drag.before);
    for (const cell of element.querySelectorAll('.cell:not(.leaving)')) {
      const place = grid.placement(cell);
      if (!place) continue;
      const cx = place.x, cy = place.y + grid.pos;
      if (cx < right && cx + place.w > left && cy < bottom && cy + place.h > top) touched.add(cell.dataset.id);
    }
    selection.set(touched);
  });
  const end = () => {
    if (drag?.moved) {
      band.remove();
      suppressClick = true;
      setTimeout(() => { suppressClick = false; }, 0);
    }
    drag = null;
  };
  element.addEventListener('pointerup', end);
  element.addEventListener('pointercancel', end);
}
