// Preloaded into the real server by tests/videos/crash.test.ts (BUN_OPTIONS=--preload). The test
// arms a step by writing "<trial> <point> <nth>" to CRASH_FILE; the server SIGKILLs itself the
// nth time it reaches that point, after disarming, so the restart runs clean.
import { readFileSync, rmSync } from 'node:fs'
import { setCrashHook } from '../src/uploads/crash-points.ts'

const file = process.env.CRASH_FILE
let armedAs = ''
let hits = 0

if (file) {
  setCrashHook((point) => {
    let armed: string
    try {
      armed = readFileSync(file, 'utf8').trim()
    } catch {
      return
    }
    if (armed !== armedAs) {
      armedAs = armed
      hits = 0
    }
    const [, target, nth] = armed.split(' ')
    if (point !== target || ++hits !== Number(nth)) return
    rmSync(file, { force: true })
    process.kill(process.pid, 'SIGKILL')
  })
}
