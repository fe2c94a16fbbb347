import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { publicRoutes } from '@finance/shared/contracts/index';
import { QUEUES } from '@finance/shared/queue/catalogue';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { CONTRACT_OPERATIONS } from '../../../test/support/contract-operations.ts';
import { TestStack } from '../../../test/support/stack.ts';
import { toOpenApiPath } from '../src/entry-points/http/openapi.ts';

const ADMIN_SECRET = 'browser-admin-secret-0123456789';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const INSTALL = 'sudo apt-get install chromium (Debian), or set CHROMIUM_PATH';
// without Chromium the suite is skipped, its title saying why (the summary lists it); CI=true requires it
const runs = existsSync(CHROMIUM) || process.env.CI === 'true';
const SUITE = 'docs: /docs rendered by headless Chromium';

const routed = () => publicRoutes.map((route) => `${route.method.toUpperCase()} ${toOpenApiPath(route.path)}`);

(runs ? describe : describe.skip)(
  runs ? SUITE : `${SUITE}: skipped, no Chromium at ${CHROMIUM}; install it: ${INSTALL}`,
  () => {
    let stack: TestStack;
    let browser: BrowserContext;
    let profile: string;
    let rendered: string[];
    let page: Page;

    beforeAll(async () => {
      if (!existsSync(CHROMIUM))
        throw new Error(`Chromium not found at ${CHROMIUM} (CI=true requires it): install it: ${INSTALL}`);
      stack = await TestStack.start({ env: { ADMIN_SECRET } });
      profile = mkdtempSync(path.join(tmpdir(), 'docs-chromium-'));
      // a fresh profile directory each run (playwright passes it as --user-data-dir)
      browser = await chromium.launchPersistentContext(profile, {
        headless: true,
        viewport: { width: 1280, height: 2000 },
        executablePath: CHROMIUM,
        args: [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-quic',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
        ],
      });
      page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (err) => errors.push(err.message));
      await page.goto(`${stack.url}/docs`);
      await page.waitForSelector('.opblock .opblock-summary-path', { timeout: 30_000 });
      rendered = await page.$$eval('.opblock', (blocks) =>
        blocks.map((block) => {
          const method = block.querySelector('.opblock-summary-method')?.textContent ?? '';
          const at = block.querySelector('.opblock-summary-path');
          return `${method.toUpperCase()} ${at?.getAttribute('data-path') ?? at?.textContent ?? ''}`;
        }),
      );
      await page.screenshot({ path: '/tmp/docs.png' });
      expect(errors).toEqual([]);
    }, 90_000);

    afterAll(async () => {
      await browser?.close();
      if (profile) rmSync(profile, { recursive: true, force: true });
      await stack?.stop();
    });

    it('when the page renders, then every routed operation is listed', () => {
      const missing = routed().filter((operation) => !rendered.includes(operation));
      expect(missing).toEqual([]);
    });

    it('when an operation is opened, then its request and response examples are shown', async () => {
      const create = page.locator('#operations-Accounts-createAccount');
      await create.locator('.opblock-summary').first().click();
      const examples = create.locator('.microlight');
      await examples.first().waitFor({ timeout: 10_000 });
      const text = (await examples.allTextContents()).join('\n');
      expect(text).toContain('"name": "Conta corrente"');
      expect(text).toContain('"createdAt"');
    });

    it('when the queue dashboard is opened with the admin secret, then it renders every queue without page errors', async () => {
      const dashboard = await browser.newPage();
      await dashboard.setExtraHTTPHeaders({ authorization: `Bearer ${ADMIN_SECRET}` });
      const errors: string[] = [];
      dashboard.on('pageerror', (err) => errors.push(err.message));
      await dashboard.goto(`${stack.url}/admin/queues`);
      await dashboard.getByText(QUEUES.insightsLedgerEvents).first().waitFor({ timeout: 15_000 });
      const text = (await dashboard.locator('body').textContent()) ?? '';
      for (const name of Object.values(QUEUES)) expect(text).toContain(name);
      expect(errors).toEqual([]);
      await dashboard.close();
    });

    it('when the page renders, then every operation of the published contract is listed', () => {
      const missing = CONTRACT_OPERATIONS.filter((operation) => !rendered.includes(operation));
      expect({ 'contract operations missing from /docs': missing }).toEqual({
        'contract operations missing from /docs': [],
      });
    });
  },
);
