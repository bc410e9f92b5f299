import { useEffect, useState } from 'react';

/**
 * An object URL of `file` while the component shows it, revoked when the file changes or the component
 * goes (issue 23: the attachment chip's thumbnail), so a picture taken off or sent leaves nothing behind.
 */
export function useObjectUrl(file: Blob | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!file) {
      setUrl(null);
      return;
    }
    const made = URL.createObjectURL(file);
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [file]);
  return url;
}
