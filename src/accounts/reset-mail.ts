import type { Mail } from '../mail/mailer.ts'

export function resetPasswordMail(to: string, link: string): Mail {
  return {
    to,
    link,
    subject: 'Reset your password',
    text: [
      'Someone asked to reset the password of your studio dashboard account.',
      '',
      `Open this link within 60 minutes to choose a new password: ${link}`,
      '',
      'If it was not you, ignore this mail: your password stays as it is.',
    ].join('\n'),
  }
}
