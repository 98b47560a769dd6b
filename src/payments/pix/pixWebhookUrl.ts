/** Where the PSP calls back for one account: the PSP appends `/pix` (and `/rec`, `/cobr`). */
export function pixWebhookUrl(publicUrl: string, webhookToken: string): string {
  return `${publicUrl}/webhooks/pix/${webhookToken}`
}
