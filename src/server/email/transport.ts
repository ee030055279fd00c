import type { Transporter } from 'nodemailer';

/**
 * The SMTP transport of `SMTP_URL` (nodemailer): `smtp://user:password@host:587` (STARTTLS when
 * the server offers it) or `smtps://…:465` (TLS from the start); pooled, so a burst of messages
 * shares a few connections (5 at most). nodemailer is loaded here, only when `SMTP_URL` is set.
 */
export async function smtpTransport(url: string): Promise<Transporter> {
  const { default: nodemailer } = await import('nodemailer');
  return nodemailer.createTransport(url.includes('?') ? `${url}&pool=true` : `${url}?pool=true`);
}
