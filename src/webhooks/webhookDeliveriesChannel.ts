/** The NOTIFY channel billing_record_event (and redelivery) signal when deliveries come due. */
export const webhookDeliveriesChannel = 'webhook_deliveries_due'
