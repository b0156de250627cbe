// Shared with web/: zod schemas, messages and limits (docs/). No server imports here.
export * from './admin.ts'
export * from './auth.ts'
export * from './file-rules.ts'
export * from './id.ts'
export * from './limits.ts'
export * from './messages.ts'
export * from './text.ts'
export * from './video.ts'
