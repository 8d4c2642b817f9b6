import pc from 'picocolors';

/**
 * Colours for one output stream: on for a terminal, off when piped or redirected.
 * picocolors alone turns colours on whenever CI is set, which puts escape codes
 * into logs and into output other programs read. NO_COLOR and FORCE_COLOR win.
 */
export function colorsFor(stream: NodeJS.WriteStream): ReturnType<typeof pc.createColors> {
  const env = process.env;
  const enabled =
    'NO_COLOR' in env ? false : 'FORCE_COLOR' in env ? env.FORCE_COLOR !== '0' : Boolean(stream.isTTY);
  return pc.createColors(enabled);
}
