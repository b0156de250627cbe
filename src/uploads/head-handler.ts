// @tus/server's HEAD handler, answering `Upload-Metadata` as the client sent it and when the
// upload expires. The library answers its parsed metadata re-encoded, which is not what was sent
// when keys look like numbers (JavaScript puts them first), values are not UTF-8 or a value's
// padding differs; the tus spec asks for the value "as specified by the Client during the
// creation". Reaches into @tus/server 2.4.5 (pinned exactly) as patch-handler.ts does: the class of
// `server.handlers.HEAD` and its `options`. No upstream issue found as of 2026-11.
import type { Server } from '@tus/server'
import { expiresHeader } from './expiry.ts'
import { type AppendingStore, handlerClass } from './patch-handler.ts'
import { metadataHeaderOf } from './record.ts'

export function echoingHeadHandler(server: Server, store: AppendingStore) {
  return new (class extends handlerClass(server, 'HEAD') {
    override async send(...args: Parameters<Server['handlers']['HEAD']['send']>) {
      const response = await super.send(...args)
      const [req] = args
      const id = response.status === 200 ? this.getFileIdFromRequest(req) : undefined
      const record = id ? await store.configstore.get(id) : undefined
      if (!record) return response
      const metadata = metadataHeaderOf(record)
      if (metadata === undefined) response.headers.delete('Upload-Metadata')
      else response.headers.set('Upload-Metadata', metadata)
      const expires = expiresHeader(record, store.getExpiration())
      if (expires) response.headers.set('Upload-Expires', expires)
      return response
    }
  })(store, server.handlers.HEAD.options)
}
