// `npm run marketplace-fakes`: the local stand-ins for Wildberries, Ozon and Amazon the test suite
// uses, started on fixed ports with a seller each, so the publisher can be tried by hand against
// them: start this, then the server with the variables it prints, and connect a store with the
// keys it prints.
import { startFakeAmazon } from '../tests/support/fakes/amazon';
import { startFakeOzon } from '../tests/support/fakes/ozon';
import { startFakeWildberries } from '../tests/support/fakes/wildberries';

const shoes = ['Кеды белые', 'Ботинки замшевые', 'Лоферы чёрные', 'Кроссовки беговые', 'Сандалии кожаные'];

const [wb, ozon, amazon] = await Promise.all([startFakeWildberries({ port: 12121 }), startFakeOzon({ port: 12122 }), startFakeAmazon({ port: 12123 })]);
const wbSeller = wb.addSeller({ name: 'Демо-продавец', categories: ['content'], cards: shoes.map((title, i) => ({ vendorCode: `WB-${i + 1}`, title, photos: 2 })) });
const ozonSeller = ozon.addSeller({ name: 'Демо-продавец', products: shoes.map((name, i) => ({ offerId: `OZ-${i + 1}`, name, pictures: 2 })) });
const amazonSeller = amazon.addSeller({ name: 'Demo seller', listings: ['White sneakers', 'Suede boots', 'Black loafers'].map((itemName, i) => ({ sku: `AMZ-${i + 1}`, itemName, pictures: 2 })) });

console.log(`Wildberries stand-in on ${wb.origin}, Ozon on ${ozon.origin}, Amazon on ${amazon.origin}.
Start the server with:

WILDBERRIES_API_URL=${wb.origin} OZON_API_URL=${ozon.origin} AMAZON_TOKEN_URL=${amazon.tokenUrl} AMAZON_API_URL=${amazon.origin} npm start

Then connect the stores in the app with these keys:
  Wildberries token:  ${wbSeller.token}
  Ozon Client-Id:     ${ozonSeller.clientId}
  Ozon Api-Key:       ${ozonSeller.apiKey}
  Amazon seller id:   ${amazonSeller.sellerId} (region na, marketplace ${amazon.marketplaceId})
  Amazon client id:   ${amazonSeller.clientId}
  Amazon secret:      ${amazonSeller.clientSecret}
  Amazon refresh:     ${amazonSeller.refreshToken}
`);

const stop = async () => {
  await Promise.all([wb.close(), ozon.close(), amazon.close()]);
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
