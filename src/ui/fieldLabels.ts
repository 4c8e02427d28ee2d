// The console names a field as its screens label it ("Client id"), never by its wire name ("clientTranId").
import { type FieldError, type FieldName, fieldErrorReason, sayFieldError } from '../api/validation';

const FIELD_LABELS: Readonly<Record<FieldName, string>> = {
  subAccount: 'Sub-account',
  permissions: 'Permissions',
  ip: 'Linked IPs',
  note: 'Note',
  clientTranId: 'Client id',
  startTime: 'Since',
  endTime: 'Until',
  page: 'Page',
  limit: 'Page size',
  fromAccountType: 'From type',
  toAccountType: 'To type',
  fromAccount: 'From account',
  toAccount: 'To account',
};

/** "Client id: must be exactly 32 letters and digits" for "clientTranId: …": for a line of its own. */
export function fieldMessage(error: FieldError): string {
  return sayFieldError(error, FIELD_LABELS);
}

/** The reason alone ("must be exactly 32 letters and digits"): for a line under its field's own label. */
export function fieldReason(error: FieldError): string {
  return fieldErrorReason(error, FIELD_LABELS);
}
