import { Component, h, type ComponentChild, type FunctionComponent } from 'preact';

/** Whether two props objects hold the same values (compared with ===, key by key). */
function sameProps(a: object, b: object): boolean {
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  for (const k in x) if (x[k] !== y[k]) return false;
  for (const k in y) if (!(k in x)) return false;
  return true;
}

/**
 * `fn` drawn again only when one of its props changed (what preact/compat's memo does, without
 * pulling compat into the bundle). For lists of thousands of rows: a parent that re-renders
 * redraws only the rows whose data changed.
 */
export function memo<P extends object>(fn: FunctionComponent<P>): FunctionComponent<P> {
  class Memo extends Component<P> {
    override shouldComponentUpdate(next: P): boolean {
      return !sameProps(this.props, next);
    }

    override render(props: P): ComponentChild {
      return h(fn, props);
    }
  }
  return Memo as unknown as FunctionComponent<P>;
}
