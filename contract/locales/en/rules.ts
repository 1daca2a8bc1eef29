import type { Translated } from '../shape';
import type ru from '../ru/rules';

const rules: Translated<typeof ru, 'en'> = {
  rules: {
    required: 'Please fill in this field.',
    identifier_required: 'Enter email or username.',
    identifier_length: 'A username has 3 to 20 characters.',
    email: 'Enter a valid e-mail address.',
    username: 'A username has 3 to 20 letters or digits.',
    password: 'A password has 8 to 20 characters with letters, numbers and symbols.',
    current_password: 'The current password has at least 8 characters.',
    password_mismatch: 'Passwords do not match.',
    code: 'The code is exactly 6 digits.',
    channel: 'Please choose how you heard about us.',
    channel_extra: 'Please tell us more.',
    too_long_one: 'The text is too long (at most {{count}} character).',
    too_long_other: 'The text is too long (at most {{count}} characters).',
    phone: 'Enter a phone number.',
    store_count: 'Enter the number of stores, a whole number from 0.',
    text: 'The text holds characters that cannot be used.',
    store_key: 'Paste the key exactly as the platform shows it: no spaces or other characters.',
    store_client_id: 'The Client-Id is the number shown in the seller portal.',
    too_deep_one: 'Nested too deep (at most {{count}} level).',
    too_deep_other: 'Nested too deep (at most {{count}} levels).',
  },
};

export default rules;
