// The web app is built into dist/ and served by the dashboard service from its own origin, under a
// strict Content-Security-Policy: no inline script or style, every asset a file of its own.
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/** All of the page's JavaScript must stay under this, gzipped (issue 15). */
const BUDGET_BYTES = 300 * 1024;

async function gzipSize(code: string): Promise<number> {
  const stream = new Blob([code]).stream().pipeThrough(new CompressionStream('gzip'));
  return (await new Response(stream).arrayBuffer()).byteLength;
}

/** Prints the gzipped size of all emitted JavaScript and fails the build over the budget. */
function jsBudget(): Plugin {
  return {
    name: 'evds-js-budget',
    apply: 'build',
    async generateBundle(_options, bundle) {
      let total = 0;
      for (const file of Object.values(bundle)) if (file.type === 'chunk') total += await gzipSize(file.code);
      const kb = (n: number) => (n / 1024).toFixed(1);
      console.log(`JavaScript total: ${kb(total)} KB gzipped (budget ${kb(BUDGET_BYTES)} KB)`);
      if (total > BUDGET_BYTES) this.error(`the JavaScript is ${kb(total)} KB gzipped, over the budget`);
    },
  };
}

export default defineConfig({
  plugins: [react(), jsBudget()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Vite would inline small assets as data: URLs; files keep the CSP simple.
    assetsInlineLimit: 0,
    sourcemap: false,
    // One chunk is fine: the budget above is what counts, on gzipped size.
    chunkSizeWarningLimit: 1024,
  },
});
