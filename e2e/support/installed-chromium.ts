// The Chromium this machine has, found as the pdf-renderer finds it (libs/rendering's resolveChromiumPath: CHROMIUM_PATH,
// else Debian's headless shell, else Debian's full browser), so a test needs Chromium exactly when the renderer does.
import { resolveChromiumPath } from '@talao/rendering';

/** The executable the pdf-renderer would run, or undefined when there is none. */
export function installedChromium(): string | undefined {
  try {
    return resolveChromiumPath();
  } catch {
    return undefined;
  }
}
