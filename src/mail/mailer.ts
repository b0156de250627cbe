// Where mail goes: SMTP when SMTP_URL is set, otherwise a file per mail in DATA_DIR/outbox/ with
// its link logged, so a developer can reset a password without a mail server.
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { createTransport } from 'nodemailer'

export type Mail = { to: string; subject: string; text: string; link?: string }
export type Mailer = { send(mail: Mail): Promise<void> }

export function createMailer(opts: { smtpUrl?: string; outboxDir: string; from: string }): Mailer {
  if (opts.smtpUrl) {
    const transport = createTransport(opts.smtpUrl)
    return {
      async send(mail) {
        await transport.sendMail({
          from: opts.from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
        })
      },
    }
  }
  return {
    async send(mail) {
      await mkdir(opts.outboxDir, { recursive: true })
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${crypto.randomUUID().slice(0, 8)}.json`
      await writeFile(
        join(opts.outboxDir, name),
        JSON.stringify({ ...mail, from: opts.from }, null, 2),
      )
      console.log(`[mail] to ${mail.to}: ${mail.subject}${mail.link ? ` — ${mail.link}` : ''}`)
    },
  }
}
