// SPDX-License-Identifier: GPL-2.0
// Load a profile into speedscope (npm), in Debian's Chromium, headless,
// on loopback, the way a user drops a file on it; print what it
// imported as JSON: the importer its console named, the title, and the
// Sandwich view's table (each frame's total and self weight). A
// screenshot goes to the path given: of the Left Heavy view (a flame
// graph) for folded stacks, of the Time Order view for a trace.
//
//   node speedscope.mjs NODE_MODULES PROFILE SCREENSHOT
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';

const [modules, profile, screenshot] = process.argv.slice(2);
const { chromium } = await import(path.join(modules, 'playwright-core/index.mjs'));
const root = path.join(modules, 'speedscope/dist/release');
const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css',
		'.wasm': 'application/wasm', '.json': 'application/json' };

const server = http.createServer((req, res) => {
	const url = decodeURIComponent(req.url.split(/[?#]/)[0]);
	const file = url === '/profile' ? profile :
		path.join(root, path.normalize(url === '/' ? 'index.html' : url));
	if (url !== '/profile' && !file.startsWith(root)) {
		res.writeHead(403);
		res.end();
		return;
	}
	fs.readFile(file, (err, data) => {
		if (err) {
			res.writeHead(404);
			res.end();
			return;
		}
		res.writeHead(200, { 'Content-Type': types[path.extname(file)] || 'text/plain' });
		res.end(data);
	});
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${server.address().port}`;

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium',
					args: ['--no-sandbox'] });
const result = { importer: null, errors: [], title: null, rows: [] };
try {
	const page = await browser.newPage({ viewport: { width: 1400, height: 500 } });
	page.on('console', (m) => {
		const t = m.text();
		if (/^Importing as /.test(t))
			result.importer = t.replace(/^Importing as /, '');
		if (m.type() === 'error')
			result.errors.push(t);
	});
	page.on('pageerror', (e) => result.errors.push(String(e)));
	await page.goto(`${base}/index.html#profileURL=${encodeURIComponent(base + '/profile')}` +
			`&title=${encodeURIComponent(path.basename(profile))}`);
	// the profile is drawn once the view's toolbar names it
	await page.waitForFunction((t) => document.title.startsWith(t),
				   path.basename(profile), { timeout: 30000 });
	await page.waitForTimeout(1000);
	result.title = await page.title();
	// folded stacks: the Left Heavy view, the flame graph; else the timeline
	if (profile.endsWith('.folded')) {
		await page.keyboard.press('2');
		await page.waitForTimeout(1000);
	}
	await page.screenshot({ path: screenshot });
	// the Sandwich view: a table of every frame, its total and self weight
	await page.keyboard.press('3');
	await page.waitForTimeout(1000);
	const text = await page.evaluate(() => document.body.innerText);
	const lines = text.split('\n').map((l) => l.trim()).filter((l) => l);
	// a weight: "130,456 (100%)", or a time: "12.35µs (98%)" (kept as text)
	const value = (s) => {
		const v = s.replace(/ \(.*\)$/, '');
		return /^[\d,]+$/.test(v) ? Number(v.replace(/,/g, '')) : v;
	};
	for (let i = lines.indexOf('Total\tSelf\tSymbol Name') + 1; i > 0 && i + 2 < lines.length; i += 3) {
		if (!/^[\d,.]+\S* \(/.test(lines[i]))
			break;
		result.rows.push({ name: lines[i + 2], total: value(lines[i]), self: value(lines[i + 1]) });
	}
} catch (e) {
	result.errors.push(String(e));
} finally {
	await browser.close();
	server.close();
}
console.log(JSON.stringify(result));
