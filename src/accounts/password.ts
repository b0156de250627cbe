// argon2id at OWASP's minimum (m=19 MiB, t=2, p=1; Bun uses one lane). ASVS 11.4.2.
export const ARGON2_OPTIONS = { algorithm: 'argon2id', memoryCost: 19456, timeCost: 2 } as const

export function hashPassword(password: string): Promise<string> {
  return Bun.password.hash(password, ARGON2_OPTIONS)
}

export function verifyPassword(password: string, hash: string): Promise<boolean> {
  return Bun.password.verify(password, hash).catch(() => false)
}

// Verified against when the e-mail is unknown, so both paths cost one argon2 verification.
let dummyHash: Promise<string> | undefined
export function verifyAgainstDummy(password: string): Promise<boolean> {
  dummyHash ??= hashPassword(crypto.randomUUID())
  return dummyHash.then((h) => verifyPassword(password, h)).then(() => false)
}
