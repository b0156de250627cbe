// bench/processing: 1080p masters (~30 Mbps, moov at the end, music-like stereo audio; 40 s and
// 3 minutes by default) through processVideo, as the media worker runs it, with its growing
// stream followed as the job follows it (src/processing/growing.ts, published into a local
// folder). Prints, per master: when the stream was first playable (its master published, every
// rung and the audio with a first segment) and when each rung got its first segment, from the
// run's start (the app's own pickup of a finished upload adds well under a second: the server
// test tests/processing/growing.test.ts prints it), targets ≤ 5 s; wall time, CPU seconds
// (ffmpeg and this process), the ratio to the master's duration (target ≤ 1.5 on this 2-core
// machine), output sizes and the load average. On a shared machine the wall time follows the
// load, so CPU ÷ cores is printed too as the idle-machine bound.
import { copyFile, mkdir, readdir, rename, rm, stat } from 'node:fs/promises'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { followGrowing } from '../src/processing/growing.ts'
import { processVideo } from '../src/processing/transcode.ts'

const DURATIONS = (process.env.PROCESSING_SECONDS ?? '40,180').split(',').map(Number)
const TARGET_RATIO = 1.5
const TARGET_PLAYABLE_S = 5
const CLOCK_TICKS = 100 // getconf CLK_TCK on Linux
const cacheDir = join(tmpdir(), 'studio-bench-processing')
const outDir = join(cacheDir, 'out')
const publishedDir = join(cacheDir, 'growing')

/** CPU seconds of this process's waited-for children (ffmpeg, ffprobe): /proc/self/stat cutime + cstime. */
async function childCpuSeconds(): Promise<number> {
  const stat = await Bun.file('/proc/self/stat').text()
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[13]) + Number(fields[14])) / CLOCK_TICKS
}

const ownCpuSeconds = () => {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1e6
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`

async function sizeOf(path: string): Promise<number> {
  const s = await stat(path)
  if (!s.isDirectory()) return s.size
  let total = 0
  for (const name of await readdir(path)) total += await sizeOf(join(path, name))
  return total
}

async function makeMaster(seconds: number): Promise<string> {
  const master = join(cacheDir, `master-${seconds}s-1080p30-30M.mp4`)
  if (await Bun.file(master).exists()) {
    console.log(`master: reusing ${master}`)
    return master
  }
  console.log(
    `master: making ${seconds} s 1080p30 at ~30 Mbps (ffmpeg ultrafast; a minute or two)…`,
  )
  const audio =
    "aevalsrc='0.25*sin(2*PI*220*t)*(0.6+0.4*sin(2*PI*0.5*t))+0.2*sin(2*PI*277.18*t)+0.15*sin(2*PI*329.63*t)+0.1*sin(2*PI*440*t+sin(2*PI*3*t))|0.25*sin(2*PI*220*t)+0.2*sin(2*PI*277.18*t)*(0.6+0.4*cos(2*PI*0.5*t))+0.15*sin(2*PI*329.63*t)+0.1*sin(2*PI*554.37*t)':s=48000:c=stereo"
  const proc = Bun.spawn(
    [
      ...['nice', '-n', '10', 'ffmpeg', '-nostdin', '-v', 'error', '-y'],
      ...['-f', 'lavfi', '-i', 'testsrc2=s=1920x1080:r=30,noise=alls=12:allf=t+u'],
      ...['-f', 'lavfi', '-i', audio, '-t', String(seconds)],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-b:v', '30M', '-maxrate', '32M'],
      ...['-bufsize', '60M', '-pix_fmt', 'yuv420p', '-g', '60'],
      ...['-c:a', 'aac', '-b:a', '320k', '-ar', '48000', `${master}.part.mp4`],
    ],
    { stdout: 'inherit', stderr: 'inherit' },
  )
  if ((await proc.exited) !== 0) throw new Error('making the master failed')
  await rename(`${master}.part.mp4`, master)
  return master
}

await mkdir(cacheDir, { recursive: true })
for (const seconds of DURATIONS) await run(await makeMaster(seconds))

async function run(master: string) {
  await rm(outDir, { recursive: true, force: true })
  await rm(publishedDir, { recursive: true, force: true })

  const loads: number[] = []
  const sampler = setInterval(() => loads.push(loadavg()[0]!), 2000)
  const loadBefore = loadavg()
  const childBefore = await childCpuSeconds()
  const ownBefore = ownCpuSeconds()
  const started = performance.now()
  let ladderDone = 0
  // When each file of the growing stream was published, from the run's start.
  const firstSegment = new Map<string, number>()
  let playableAt = 0
  const result = await processVideo({
    source: master,
    outDir,
    onProgress: (p) => {
      if (p >= 95 && !ladderDone) ladderDone = performance.now()
    },
    onLadder: (plan) =>
      followGrowing(outDir, plan, {
        async put(path, body) {
          const to = join(publishedDir, path)
          await mkdir(dirname(to), { recursive: true })
          if ('text' in body) await Bun.write(to, body.text)
          else await copyFile(body.path, to)
          const rung = path.split('/')[0]!
          if (path.endsWith('.m4s') && !firstSegment.has(rung)) {
            firstSegment.set(rung, performance.now() - started)
          }
          if (path === 'master.m3u8') playableAt = performance.now() - started
        },
        async progress() {},
      }),
  })
  const wall = (performance.now() - started) / 1000
  const childCpu = (await childCpuSeconds()) - childBefore
  const ownCpu = ownCpuSeconds() - ownBefore
  clearInterval(sampler)
  const loadAfter = loadavg()

  const cores = availableParallelism()
  const cpu = childCpu + ownCpu
  const duration = result.probe.duration
  const ratio = wall / duration
  const meanLoad = loads.length ? loads.reduce((a, b) => a + b) / loads.length : loadAfter[0]!

  console.log(
    `first playable: ${(playableAt / 1000).toFixed(2)} s from the run's start (target ≤ ${TARGET_PLAYABLE_S} s: ${playableAt / 1000 <= TARGET_PLAYABLE_S ? 'met' : 'NOT met'}); first segment of ${[
      ...firstSegment,
    ]
      .map(([rung, ms]) => `${rung} ${(ms / 1000).toFixed(2)} s`)
      .join(', ')}`,
  )
  console.log(
    `\nsource: ${mb(Bun.file(master).size)}, ${duration.toFixed(1)} s, ${result.probe.width}x${result.probe.height}, ${(result.probe.bitrate! / 1e6).toFixed(1)} Mbps`,
  )
  const ladderWall = (ladderDone - started) / 1000
  console.log(
    `wall: ${wall.toFixed(1)} s (probe + ladder ${ladderWall.toFixed(1)} s, MP4 + preview + master ${(wall - ladderWall).toFixed(1)} s)`,
  )
  console.log(
    `CPU: ${cpu.toFixed(1)} s (ffmpeg/ffprobe ${childCpu.toFixed(1)} s, this process ${ownCpu.toFixed(1)} s) on ${cores} cores`,
  )
  console.log(
    `ratio to duration: ${ratio.toFixed(2)}× (target ≤ ${TARGET_RATIO}×: ${ratio <= TARGET_RATIO ? 'met' : 'NOT met'}); idle-machine bound CPU ÷ ${cores} cores = ${(cpu / cores / duration).toFixed(2)}×`,
  )
  console.log(
    `load average: before ${loadBefore.map((l) => l.toFixed(2)).join(' ')}, mean 1-min during ${meanLoad.toFixed(2)}, after ${loadAfter.map((l) => l.toFixed(2)).join(' ')}`,
  )
  console.log('\noutputs:')
  for (const r of result.renditions) {
    console.log(
      `  ${r.name.padEnd(6)} ${`${r.width}x${r.height}`.padEnd(10)} ${mb(await sizeOf(join(outDir, r.name))).padStart(9)}  BANDWIDTH ${(r.bandwidth / 1e6).toFixed(2)} Mbps, average ${(r.averageBandwidth / 1e6).toFixed(2)} Mbps  ${r.codecs}`,
    )
  }
  console.log(`  audio                 ${mb(await sizeOf(join(outDir, 'audio'))).padStart(9)}`)
  console.log(
    `  video.mp4             ${mb(await sizeOf(join(outDir, result.files.mp4))).padStart(9)}`,
  )
  console.log(
    `  preview.mp4           ${`${((await sizeOf(join(outDir, result.files.preview))) / 1000).toFixed(0)} KB`.padStart(9)}`,
  )
  console.log(`  total                 ${mb(await sizeOf(outDir)).padStart(9)}`)

  if (!process.env.BENCH_KEEP) await rm(outDir, { recursive: true, force: true })
  else console.log(`\noutputs kept in ${outDir}`)
  await rm(publishedDir, { recursive: true, force: true })
  console.log('')
}
