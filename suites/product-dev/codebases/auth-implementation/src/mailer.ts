export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(message: MailMessage): void;
}

/** Keeps sent messages in memory (development and tests). */
export class MemoryMailer implements Mailer {
  readonly sent: MailMessage[] = [];

  send(message: MailMessage): void {
    this.sent.push(message);
  }
}
