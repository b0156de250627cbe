// React keys for lists whose entries may repeat (two services of the same name): the entry's own
// key, numbered from its second occurrence, so keys stay unique and follow the entries.
export function keyed<T>(items: readonly T[], keyOf: (item: T) => string): [string, T][] {
  const seen = new Map<string, number>()
  return items.map((item) => {
    const key = keyOf(item)
    const n = seen.get(key) ?? 0
    seen.set(key, n + 1)
    return [n === 0 ? key : `${key}#${n}`, item]
  })
}
