// `bun run bench <name>`: runs one benchmark; with no name, lists them. See bench/README.md.
const benches: Record<string, string> = {
  api: 'bench/api.ts',
  compress: 'bench/compress.ts',
  upload: 'bench/upload.ts',
  range: 'bench/range.ts',
  'kill-upload': 'bench/kill-upload.ts',
  fuzz: 'bench/fuzz.ts',
  lighthouse: 'bench/lighthouse.ts',
  fresh: 'bench/fresh.ts',
  playback: 'bench/playback.ts',
  processing: 'bench/processing.ts',
  catalogue: 'bench/catalogue.ts',
  's3-clients': 'bench/s3-clients.ts',
  storage: 'bench/storage.ts',
  'media-serve': 'bench/media-serve.ts',
}
const name = process.argv[2]
if (!name || !benches[name]) {
  console.log(`usage: bun run bench <${Object.keys(benches).join('|')}>`)
  process.exit(name ? 1 : 0)
}
const proc = Bun.spawn([process.execPath, benches[name]!, ...process.argv.slice(3)], {
  cwd: new URL('..', import.meta.url).pathname,
  stdout: 'inherit',
  stderr: 'inherit',
})
process.exit(await proc.exited)
