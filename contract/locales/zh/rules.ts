import type { Translated } from '../shape';
import type ru from '../ru/rules';

const rules: Translated<typeof ru, 'zh'> = {
  rules: {
    required: '请填写此项。',
    identifier_required: '请输入邮箱或用户名。',
    identifier_length: '用户名为 3 到 20 个字符。',
    email: '请输入有效的邮箱地址。',
    username: '用户名为 3 到 20 个字母或数字。',
    password: '密码为 8 到 20 个字符，需包含字母、数字和符号。',
    current_password: '当前密码至少 8 个字符。',
    password_mismatch: '两次输入的密码不一致。',
    code: '验证码为 6 位数字。',
    channel: '请选择您了解我们的渠道。',
    channel_extra: '请补充说明。',
    too_long_other: '文本过长（最多 {{count}} 个字符）。',
    phone: '请输入手机号码。',
    store_count: '请输入店铺数量（不小于 0 的整数）。',
    text: '文本包含无法使用的字符。',
    store_key: '请按平台显示的样子原样粘贴密钥：不要有空格或其他字符。',
    store_client_id: 'Client-Id 是卖家后台显示的数字。',
    too_deep_other: '嵌套层级过深（最多 {{count}} 层）。',
  },
};

export default rules;
