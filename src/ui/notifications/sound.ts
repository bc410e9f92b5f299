/** Spec §9: the incoming-message sound plays at volume 0.5. */
export const SOUND_VOLUME = 0.5;

let context: AudioContext | null = null;

/**
 * A short two-note chime made with the Web Audio API (nothing is fetched). Failures, such as a browser
 * that blocks audio before the first user gesture, are only logged (spec §8).
 */
export function playChime(): void {
  try {
    context ??= new AudioContext();
    // Not awaited: a context the browser holds suspended until a user gesture may never resume.
    if (context.state === 'suspended') context.resume().catch((error: unknown) => console.warn('notification sound failed', error));
    const audio = context;
    const start = audio.currentTime;
    const gain = audio.createGain();
    gain.gain.setValueAtTime(0.0001, start);
    gain.gain.exponentialRampToValueAtTime(SOUND_VOLUME, start + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.35);
    gain.connect(audio.destination);
    [880, 1320].forEach((frequency, i) => {
      const osc = audio.createOscillator();
      osc.type = 'sine';
      osc.frequency.setValueAtTime(frequency, start + i * 0.12);
      osc.connect(gain);
      osc.start(start + i * 0.12);
      osc.stop(start + 0.35);
    });
  } catch (error) {
    console.warn('notification sound failed', error);
  }
}
