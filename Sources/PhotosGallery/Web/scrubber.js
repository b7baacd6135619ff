// The scrubber beside the grid: years and months placed where they are in
// the timeline, a handle at the current position, and a label while
// dragging. A click or a drag jumps anywhere at once; the oldest month is
// at the bottom of the bar whatever the library's size.

export class Scrubber {
  constructor(element, grid) {
    this.element = element;
    this.grid = grid;
    element.replaceChildren();
    element.setAttribute('role', 'scrollbar');
    element.setAttribute('aria-orientation', 'vertical');
    element.setAttribute('aria-label', 'Timeline position');
    element.tabIndex = 0;
    this.marks = document.createElement('div');
    this.marks.className = 'scrubber-marks';
    this.handle = document.createElement('div');
    this.handle.className = 'scrubber-handle';
    this.label = document.createElement('div');
    this.label.className = 'scrubber-label';
    element.append(this.marks, this.handle, this.label);
    grid.addEventListener('sections', () => this.drawMarks());
    grid.addEventListener('rendered', () => this.update());
    this.connect();
    this.drawMarks();
  }

  /** One mark per year (its first month), and a link per month for keyboard users. */
  drawMarks() {
    const { sections, total } = this.grid;
    this.marks.replaceChildren();
    let year = null;
    const height = this.height || 1;
    let lastTop = -Infinity;
    for (const section of sections) {
      const sectionYear = section.id.slice(0, 4);
      const top = (section.top / Math.max(1, total)) * height;
      const mark = document.createElement('button');
      mark.type = 'button';
      mark.className = 'scrubber-mark';
      mark.dataset.section = section.id;
      mark.style.top = `${top}px`;
      mark.setAttribute('aria-label', section.title);
      mark.tabIndex = -1;
      if (sectionYear !== year && top - lastTop > 14) {
        mark.textContent = section.id === 'undated' ? '–' : sectionYear;
        mark.classList.add('year');
        lastTop = top;
      }
      year = sectionYear;
      this.marks.append(mark);
    }
    this.update();
  }

  update() {
    const { pos, total } = this.grid;
    const height = this.height || 1;
    const max = this.grid.maxPos();
    const fraction = max ? pos / max : 0;
    this.handle.style.top = `${fraction * (height - 4)}px`;
    const section = this.grid.currentSection();
    this.element.setAttribute('aria-valuenow', String(Math.round(fraction * 100)));
    this.element.setAttribute('aria-valuetext', section?.title ?? '');
    this.label.textContent = section?.title ?? '';
    this.label.style.top = this.handle.style.top;
    const moved = total && this.lastTotal && Math.abs(total - this.lastTotal) / total > 0.02;
    this.lastTotal = total;
    if (moved) this.drawMarks();
  }

  connect() {
    const jump = (clientY) => {
      const bounds = this.element.getBoundingClientRect();
      // The last few pixels at either end are the ends, so the oldest photo is one click away.
      const fraction = Math.min(1, Math.max(0, (clientY - bounds.top - 3) / (bounds.height - 6)));
      this.grid.scrollTo(fraction * this.grid.maxPos());
    };
    this.element.addEventListener('pointerdown', (event) => {
      const mark = event.target.closest('.scrubber-mark');
      if (event.isTrusted) this.element.setPointerCapture(event.pointerId);
      this.element.classList.add('dragging');
      if (mark) this.grid.jumpTo(mark.dataset.section);
      else jump(event.clientY);
      event.preventDefault();
    });
    this.element.addEventListener('pointermove', (event) => {
      if (this.element.hasPointerCapture(event.pointerId)) jump(event.clientY);
    });
    const release = () => this.element.classList.remove('dragging');
    this.element.addEventListener('pointerup', release);
    this.element.addEventListener('pointercancel', release);
    this.element.addEventListener('keydown', (event) => {
      const sections = this.grid.sections;
      const index = sections.indexOf(this.grid.currentSection());
      const target = { ArrowDown: index + 1, ArrowUp: index - 1, PageDown: index + 12, PageUp: index - 12, Home: 0, End: sections.length - 1 }[event.key];
      if (target === undefined) return;
      event.preventDefault();
      const section = sections[Math.max(0, Math.min(sections.length - 1, target))];
      if (event.key === 'End') this.grid.scrollTo(Infinity);
      else if (section) this.grid.jumpTo(section.id);
    });
    // The bar's height is read when it changes, never while drawing: reading it there would force a layout on every frame.
    new ResizeObserver((entries) => {
      this.height = entries[0].contentRect.height;
      this.drawMarks();
    }).observe(this.element);
  }
}
