import { chromiumPath } from '../tests/support/chromium';

// One clear line instead of a stack trace when the browser tests cannot run here.
if (!chromiumPath()) {
  console.error(
    'No Chromium found: install it with `sudo apt-get install -y chromium` or set CHROMIUM_PATH to a Chromium binary.',
  );
  process.exit(1);
}
