// lseek(2) for a file descriptor, which Node's fs does not offer. Bun.write to Bun.file(fd)
// writes at the descriptor's position, so this is what lets a tus PATCH body go to the file at
// its offset through Bun's native path. Where libc cannot be loaded, callers fall back to
// positioned writes from JavaScript (slower, same bytes).
import { dlopen, FFIType } from 'bun:ffi'

const SEEK_SET = 0

function load(): ((fd: number, offset: number) => boolean) | undefined {
  if (process.platform !== 'linux') return undefined
  try {
    const libc = dlopen('libc.so.6', {
      lseek: { args: [FFIType.i32, FFIType.i64, FFIType.i32], returns: FFIType.i64 },
    })
    return (fd, offset) => Number(libc.symbols.lseek(fd, offset, SEEK_SET)) === offset
  } catch {
    return undefined
  }
}

const lseek = load()

/** Whether `seek` can work here at all. */
export const canSeek = lseek !== undefined

/** Moves `fd`'s position to `offset`; false when that is not possible here. */
export const seek = (fd: number, offset: number): boolean => lseek?.(fd, offset) ?? false
