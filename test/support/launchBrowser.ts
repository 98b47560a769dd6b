import chromium from '@sparticuz/chromium'
import { chromium as playwright, type Browser } from 'playwright-core'

/**
 * Headless Chromium from an npm package (@sparticuz/chromium ships the browser inside the package), so
 * the browser tests need no download and no system package. CHROMIUM_PATH picks another build.
 */
export async function launchBrowser(): Promise<Browser> {
  const executablePath = process.env.CHROMIUM_PATH ?? (await chromium.executablePath())
  return playwright.launch({
    executablePath,
    headless: true,
    // The package's own flags are tuned for one-shot serverless use (--single-process dies with its
    // first closed page, --disable-web-security would hide real browser behaviour); these are the ones a
    // test browser needs as root on a closed network.
    args: [
      '--no-sandbox',
      '--disable-setuid-sandbox',
      '--no-zygote',
      '--in-process-gpu',
      '--use-gl=angle',
      '--use-angle=swiftshader',
      '--enable-unsafe-swiftshader',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  })
}
