// The job's growing stream (growing.ts) in the media store: a stream folder of its own, which the
// work's row names (with how far it got) from before its first file is stored until the run
// ends, so a start-up sweep never takes it for a stray and /media serves it to admins only, never
// cached as immutable. Removed when the run ends, however it ends; a killed process's folder is
// removed by the file's next attempt.
import type { GrowingState } from '../contract/growing-stream.ts'
import type { Db } from '../db/database.ts'
import { derivedFile, newFolderName } from '../storage/layout.ts'
import { type MediaStore, removeFolders } from '../storage/store.ts'
import type { ProcessVideoPayload } from '../videos/job.ts'
import { forgetGrowing, writeGrowing } from '../videos/rows.ts'
import { followGrowing, type LadderPlan } from './growing.ts'

export function growingInStore(deps: {
  db: Db
  store: MediaStore
  job: ProcessVideoPayload
  /** Told after each write to the row. */
  onChange?: () => void
}) {
  const { db, store, job } = deps
  let folder: string | undefined
  let named: Promise<boolean> = Promise.resolve(false)

  let last = ''
  const write = async (state: GrowingState) => {
    // The audio's pieces come every second: only a change a player can use is written.
    const key = JSON.stringify(state)
    if (key === last) return true
    const ok = await writeGrowing(db, job, state)
    if (ok) {
      last = key
      deps.onChange?.()
    }
    return ok
  }

  return {
    /** Publishes the run writing into `outDir` under a new folder. */
    follow(outDir: string, plan: LadderPlan) {
      const name = newFolderName()
      folder = name
      const planned = plan.rungs.map((rung) => rung.name)
      const { duration } = plan
      // Nothing is stored before the row names the folder; a row that no longer takes writes
      // (the file replaced, the work deleted) gets nothing stored at all.
      named = write({ folder: name, planned, duration, rungs: [], seconds: 0 }).catch((error) => {
        console.error(`[media] growing stream: ${(error as Error).message}`)
        return false
      })
      return followGrowing(outDir, plan, {
        async put(path, body) {
          if (!(await named)) return
          const file = derivedFile([name, ...path.split('/')])
          if (!file) throw new Error(`not a stream file: ${path}`)
          const source = 'text' in body ? new Response(body.text).body! : body
          await store.storage.write(file.key, source, { type: file.type })
        },
        async progress(state) {
          if (await named) await write({ folder: name, planned, duration, ...state })
        },
      })
    },
    /**
     * The run has ended: its folder is removed, now or after `keepSeconds` (a ready work's, for
     * players still on it: the row marked it ended), and the row forgets it. A process gone
     * before then leaves it named: housekeeping or the file's next attempt removes it.
     */
    async end(keepSeconds = 0) {
      const name = folder
      if (!name) return
      folder = undefined
      // Never fails the run: what is left is removed by housekeeping or the next attempt.
      const retire = async () => {
        try {
          await removeFolders(store, [name])
          if ((await named) && (await forgetGrowing(db, job, name))) deps.onChange?.()
        } catch (error) {
          console.error(`[media] growing stream: ${(error as Error).message}`)
        }
      }
      if (keepSeconds <= 0) return retire()
      setTimeout(() => void retire(), keepSeconds * 1000).unref()
    },
  }
}
