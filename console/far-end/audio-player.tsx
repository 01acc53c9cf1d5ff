import { useEffect, useState } from 'preact/hooks';
import { fetchBlob } from '../api.js';
import type { Session } from '../session.js';

/**
 * Fetches a WAV with the session's credentials (an <audio> element cannot send them) and
 * plays it from a blob: URL, released when the player goes away or loads something else.
 */
export function AudioPlayer({ session, path, label, id }: { session: Session; path: string; label: string; id?: string }) {
  const [url, setUrl] = useState<string | undefined>();
  const [error, setError] = useState('');
  useEffect(() => () => {
    if (url) URL.revokeObjectURL(url);
  }, [url]);

  async function load() {
    setError('');
    try {
      const blob = await fetchBlob(session, 'ari', path);
      setUrl(URL.createObjectURL(blob));
    } catch (e) {
      setError((e as Error).message);
    }
  }

  return (
    <span class="player" data-player={id ?? path}>
      <button type="button" onClick={() => void load()}>{url ? `Reload ${label}` : `Load ${label}`}</button>
      {url && <audio controls src={url} preload="metadata" />}
      {error && <span class="error">{error}</span>}
    </span>
  );
}
