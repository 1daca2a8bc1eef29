import type { Translated } from '../shape';
import type ru from '../ru/mail';

const mail: Translated<typeof ru, 'zh'> = {
  mail: {
    hello: '{{name}}，您好！',
    ignore: '如果这不是您本人的操作，请忽略此邮件。',
    verify: {
      subject: '确认您的 SoleStudio 邮箱',
      body: '请点击以下链接确认邮箱地址，完成 SoleStudio 注册：',
      button: '确认邮箱',
      expiry: '链接 24 小时内有效，仅可使用一次。',
    },
    resetCode: {
      subject: 'SoleStudio 密码重置验证码',
      body: '您的密码重置验证码：',
      expiry: '验证码 10 分钟内有效，请勿告知他人。',
    },
    subscription: {
      open: '管理订阅',
      subject: {
        activated: '您的「{{plan}}」订阅已生效',
        renewed: '您的「{{plan}}」订阅已续订',
        upgraded: '您的套餐已变更为「{{plan}}」',
        payment_failed: '您的「{{plan}}」订阅续订失败',
        unpaid: '您的「{{plan}}」订阅未支付',
        canceled: '您的「{{plan}}」订阅已结束',
        revoked: '「{{plan}}」的自动扣款授权已撤销',
        refunded: '您为 {{plan}} 的付款已退还',
      },
      body: {
        activated: '感谢订阅！套餐代币已计入余额，有效期至 {{date}}。',
        renewed: '订阅已续订，新周期的代币已计入，有效期至 {{date}}。',
        upgraded: '新套餐从今天起生效，其代币已计入，有效期至 {{date}}。上一周期的代币在原有效期内仍可使用。',
        payment_failed: '银行或支付服务拒绝了扣款。我们将于 {{date}} 再次尝试。请确认银行卡或钱包余额充足。',
        unpaid: '多次扣款未成功。最后一次尝试在 {{date}}；如仍失败，订阅将结束。',
        canceled: '您的订阅已结束。本周期剩余代币在有效期内仍可使用；您可以随时重新订阅。',
        revoked: '您撤销了自动扣款授权，订阅不会续订。已付费周期持续到 {{date}}。',
        refunded: '您支付了一个已被替换的订阅结算，而您已有生效的套餐，因此该付款已全额退还，第二个订阅已结束。您当前的套餐不变。',
      },
    },
    publication: {
      subject: {
        done: '图片已上架到 {{platform}} 商品卡',
        partial: '部分图片已上架到 {{platform}} 商品卡',
        failed: '图片未能上架到 {{platform}} 商品卡',
      },
      body: {
        done: '全部 {{applied}} 个结果已出现在 {{platform}} 的“{{product}}”商品卡上。',
        partial: '{{platform}} 的“{{product}}”商品卡上已有 {{applied}} 个；未成功 {{failed}} 个——原因和重试按钮见“店铺”。',
        failed: '没有结果上架到 {{platform}} 的“{{product}}”商品卡。原因和重试按钮见“店铺”。',
      },
      open: '打开“店铺”',
    },
    task: {
      subject: {
        completed: '您的内容已生成',
        partially_completed: '部分内容已生成',
        failed: '任务未能完成',
      },
      body: {
        completed: '任务已完成：所有结果都在任务历史中等您查看。',
        partially_completed: '部分结果已在任务历史中生成，未能生成部分的代币已退还。',
        manual_rejection: '部分照片未通过检查。原因和重试按钮见任务历史。代币已退还。',
        system_error: '由于我们这边的错误，任务未能完成。代币已退还。',
      },
      open: '打开任务历史',
    },
  },
};

export default mail;
