import { feedbackSchema, type FeedbackRequest } from '../../../../contract/auth';
import { okEnvelope } from '../../../../contract/envelope';
import { apiRequest } from '../../../lib/api-client';

const schema = okEnvelope(feedbackSchema);

export async function sendFeedback(body: FeedbackRequest) {
  return (await apiRequest('/api/v1/feedback/', { method: 'POST', body, schema })).data;
}
