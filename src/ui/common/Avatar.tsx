import { useState } from 'react';
import { avatarColor, CHANNEL_AVATAR_COLOR, initials } from './avatarColor';

export interface AvatarProps {
  id: number | string;
  name: string;
  /** A picture to show; initials on the palette colour when missing, default or broken. */
  imageUrl?: string | null;
  /** Channels and feeds use the fixed orange-red (spec §9). */
  channel?: boolean;
  size?: number;
}

/** A round avatar. Decorative: the name next to it is what screen readers read. */
export function Avatar({ id, name, imageUrl, channel = false, size = 40 }: AvatarProps) {
  const [broken, setBroken] = useState(false);
  const style = {
    width: size,
    height: size,
    background: channel ? CHANNEL_AVATAR_COLOR : avatarColor(id),
    fontSize: Math.round(size * 0.4),
  };
  return (
    <span className="avatar" style={style} aria-hidden="true" data-testid="avatar">
      {imageUrl && !broken ? (
        <img src={imageUrl} alt="" width={size} height={size} onError={() => setBroken(true)} />
      ) : (
        initials(name)
      )}
    </span>
  );
}
