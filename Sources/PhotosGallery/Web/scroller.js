// Moves a grid's position from the wheel, touch and the keyboard. The grid
// draws at its own position (see grid.js), so these inputs are read here
// rather than left to the browser's scrolling.

const lineHeight = 40;

/** Connects wheel, touch (with momentum) and keys on `grid.element` to the grid. */
export function connectScrolling(grid) {
  const element = grid.element;
  element.tabIndex = 0;
  element.addEventListener('wheel', (event) => {
    event.preventDefault();
    const unit = event.deltaMode === 1 ? lineHeight : event.deltaMode === 2 ? grid.viewportHeight : 1;
    grid.scrollBy(event.deltaY * unit);
  }, { passive: false });

  let touch = null;
  let momentum = 0;
  element.addEventListener('touchstart', (event) => {
    if (event.touches.length !== 1) return;
    cancelAnimationFrame(momentum);
    touch = { y: event.touches[0].clientY, time: event.timeStamp, velocity: 0 };
  }, { passive: true });
  element.addEventListener('touchmove', (event) => {
    if (!touch || event.touches.length !== 1) return;
    event.preventDefault();
    const y = event.touches[0].clientY;
    const delta = touch.y - y;
    const elapsed = Math.max(1, event.timeStamp - touch.time);
    touch.velocity = 0.8 * (delta / elapsed) + 0.2 * touch.velocity;
    touch.y = y;
    touch.time = event.timeStamp;
    grid.scrollBy(delta);
  }, { passive: false });
  element.addEventListener('touchend', () => {
    if (!touch) return;
    let velocity = touch.velocity * 16;
    touch = null;
    const glide = () => {
      if (Math.abs(velocity) < 0.5) return;
      grid.scrollBy(velocity);
      velocity *= 0.95;
      momentum = requestAnimationFrame(glide);
    };
    momentum = requestAnimationFrame(glide);
  });

  element.addEventListener('keydown', (event) => {
    if (event.target.closest('input, textarea, select')) return;
    const page = grid.viewportHeight * 0.9;
    const moves = {
      ArrowDown: lineHeight, ArrowUp: -lineHeight, PageDown: page, PageUp: -page,
      ' ': event.shiftKey ? -page : page,
    };
    if (event.key === 'Home') grid.scrollTo(0);
    else if (event.key === 'End') grid.scrollTo(Infinity);
    else if (event.key in moves && !(event.key === ' ' && event.target.closest('button'))) grid.scrollBy(moves[event.key]);
    else return;
    event.preventDefault();
  });
}
