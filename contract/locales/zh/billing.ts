import type { Translated } from '../shape';
import type ru from '../ru/billing';

const billing: Translated<typeof ru, 'zh'> = {
  recharge: {
    balance: '余额',
    packs: '代币套餐',
    pack_other: '{{count}} 个代币',
    saving: '节省 {{percent}}%',
    history: '消费记录',
    country: '国家/地区',
    countryPlaceholder: '开始输入名称',
    countryNotFound: '列表中没有这个国家/地区。',
    method: '支付方式',
    methods: {
      card_ru: '银行卡（俄罗斯）',
      card_intl: '国际银行卡',
      yoomoney_ru: 'YooMoney',
      sberpay_ru: 'SberPay',
      tbank_ru: 'T-Pay',
    },
    total: '应付',
    rate: '价格以美元计；卢布按 1 美元 = {{rate}} ₽ 换算。实际扣款与显示金额完全一致。',
    submit: '前往支付',
    redirecting: '正在打开支付页面…',
    loading: '正在加载价格…',
    loadFailed: '无法加载价格。',
    retry: '重试',
    offline: '没有网络：恢复连接后即可充值。',
    overlay: {
      pending: '正在等待支付确认…',
      pendingHint: '通常只需几秒钟。可以关闭此页面：支付确认后代币会立即到账。',
      home: '返回首页',
      close: '关闭',
    },
    alerts: {
      itemNotFound: '请选择代币套餐。',
      redirectUrlNotFound: '支付服务没有返回支付页面。未扣款，请重试。',
      otherError: '无法发起支付：{{message}}',
      invalidStatus: '支付未成功：银行或支付服务拒绝了这笔支付。未扣款。',
      expired: '支付时间已过。未扣款，请重新开始。',
      success_other: '支付成功：{{count}} 个代币已添加到余额。',
      cancelled: '支付已取消。未扣款。',
      unknownPayment: '找不到这笔支付。如果已扣款，请联系客服，我们会处理。',
      noPayment: '没有等待结果的支付。请重新充值。',
      statusFailed: '无法读取支付结果。几秒后将重试。',
    },
  },
  consumption: {
    balance: '余额',
    plan: '当前套餐',
    noPlan: '无订阅',
    recharge: '充值',
    loading: '正在加载记录…',
    loadFailed: '无法加载记录。',
    empty: '暂无代币变动。',
    loadMore: '显示更多',
    noMore: '已显示全部记录。',
    types: {
      top_up: '充值',
      content_generation: '内容生成',
      subscription: '订阅',
      sign_up_bonus: '注册奖励',
      refund: '退还',
    },
  },
};

export default billing;
