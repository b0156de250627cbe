// compose.yaml is documentation that runs: what it sets must be what the server reads, and the
// balancer must know every server it defines.
import { expect, test } from 'bun:test'
import { loadConfig } from '../../src/config.ts'

const root = new URL('../..', import.meta.url).pathname
type Service = {
  command?: string[]
  environment?: Record<string, string>
  volumes?: string[]
  image?: string
  build?: string
}
const compose = Bun.YAML.parse(await Bun.file(`${root}compose.yaml`).text()) as {
  services: Record<string, Service>
}
const nginx = await Bun.file(`${root}deploy/nginx.conf`).text()
const apps = Object.entries(compose.services).filter(([, s]) => s.build === '.')

test('every app container takes its settings as the server reads them: PostgreSQL and the bucket', () => {
  expect(apps.map(([name]) => name).sort()).toEqual(['app1', 'app2', 'worker'])
  for (const [name, service] of apps) {
    const env = Object.fromEntries(
      Object.entries(service.environment ?? {}).map(([k, v]) => [
        k,
        v.startsWith('${ADMIN_PASSWORD') ? 'a-long-password' : v,
      ]),
    )
    const config = loadConfig({ ...env, NODE_ENV: 'production' })
    expect(config.databaseUrl, name).toStartWith('postgres://')
    expect(config.s3, name).toEqual({
      bucket: 'studio-media',
      endpoint: 'http://minio:9000',
      region: 'us-east-1',
      forcePathStyle: true,
    })
    // Each container has a DATA_DIR of its own: one process per data folder.
    expect(service.volumes?.length, name).toBe(1)
  }
  const volumes = apps.map(([, s]) => s.volumes![0]!.split(':')[0])
  expect(new Set(volumes).size).toBe(apps.length)
  const [server, , worker] = apps.map(([, s]) =>
    loadConfig({ ...s.environment, ADMIN_PASSWORD: 'x'.repeat(8) }),
  )
  expect(server!.media.workers).toBe(0)
  expect(worker!.media.workers).toBe(1)
  expect(compose.services.worker!.command).toEqual(['bun', 'run', 'worker'])
})

test('the balancer sends every request, uploads too, round robin to both servers, with no body limit of its own', () => {
  const upstreams = [...nginx.matchAll(/upstream (\w+) \{([^}]*)\}/g)]
  expect(upstreams.map((m) => m[1])).toEqual(['app'])
  const [, , body] = upstreams[0]!
  expect([...body!.matchAll(/server (\w+):3000/g)].map((m) => m[1])).toEqual(['app1', 'app2'])
  // No stickiness: tus uploads in progress are in the bucket, where any server finds them.
  expect(body).not.toMatch(/\b(hash|ip_hash|sticky)\b/)
  expect(nginx).not.toContain('location /uploads/')
  expect(compose.services.app1!.environment).toMatchObject({ S3_BUCKET: expect.any(String) })
  expect(nginx).toContain('client_max_body_size 0;')
  expect(nginx).toContain('proxy_request_buffering off;')
})

test('a server that is gone is skipped: the balancer tries the next one, and gives up connecting in seconds', () => {
  // tests/cluster/topology.test.ts runs this file's nginx and kills a server behind it.
  expect(nginx).toContain('proxy_next_upstream error timeout;')
  expect(nginx).not.toContain('non_idempotent')
  const connect = /proxy_connect_timeout (\d+)s;/.exec(nginx)
  expect(Number(connect?.[1])).toBeLessThanOrEqual(5)
  expect(nginx).toMatch(/server app1:3000 max_fails=\d+ fail_timeout=\d+s;/)
})
