import type { RefObject } from 'preact';
import { useEffect, useLayoutEffect, useState } from 'preact/hooks';

/** Which rows of a long list to draw: `first` (inclusive) to `last` (exclusive), and the list's whole height. */
export interface RowWindow {
  first: number;
  last: number;
  /** Pixels above the first drawn row. */
  offset: number;
  /** Pixels of the whole list (every row at its fixed height). */
  total: number;
  /** Whether the view follows the newest row (it was at the bottom when the list last grew). */
  following: boolean;
}

/** Rows drawn beyond each edge of the viewport, so a scroll of a few rows shows no blank. */
const OVERSCAN = 8;

/**
 * A window on `count` rows of `rowHeight` pixels each inside the scrolling element `ref`:
 * only the rows in view (and a few either side) are drawn. While the view is at the bottom
 * it stays there as rows are added (following the tail); scrolled up, it stays where it is.
 */
export function useRowWindow(ref: RefObject<HTMLElement | null>, count: number, rowHeight: number): RowWindow {
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(600);
  const [following, setFollowing] = useState(true);
  const total = count * rowHeight;

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const onScroll = () => {
      // Within half a row of the bottom counts as the bottom (rounding of fractional pixels).
      const atBottom = el.scrollTop + el.clientHeight >= el.scrollHeight - rowHeight / 2;
      setFollowing(atBottom);
      // While following, where it stands is known without a render; scrolled up, draw that part.
      if (!atBottom) setScrollTop(el.scrollTop);
    };
    const resized = new ResizeObserver(() => setHeight(el.clientHeight));
    resized.observe(el);
    el.addEventListener('scroll', onScroll, { passive: true });
    setHeight(el.clientHeight);
    return () => {
      resized.disconnect();
      el.removeEventListener('scroll', onScroll);
    };
  }, [ref, rowHeight]);

  const top = following ? Math.max(0, total - height) : Math.min(scrollTop, Math.max(0, total - height));
  const first = Math.max(0, Math.floor(top / rowHeight) - OVERSCAN);
  const last = Math.min(count, Math.ceil((top + height) / rowHeight) + OVERSCAN);

  // After drawing: a following view is moved to the bottom (the browser has the new height by then).
  useLayoutEffect(() => {
    const el = ref.current;
    if (el && following && el.scrollTop !== el.scrollHeight - el.clientHeight) el.scrollTop = el.scrollHeight;
  });

  return { first, last, offset: first * rowHeight, total, following };
}
