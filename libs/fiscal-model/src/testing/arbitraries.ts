// fast-check arbitraries of valid invoice scenarios (issuer + request body + validation time), for property tests
// here and in the XML builders. Every generated body passes validateInvoiceRequest by construction.
import fc from 'fast-check';
import { Dec, round2 } from '../decimal/money.js';
import type { IssuerProfile, TaxRegime } from '../request/issuer-profile.js';
import { CSOSN_GROUP_ARBITRARIES, CST_GROUP_ARBITRARIES, percentArb } from './icms-arbitraries.js';
import { SAMPLE_RJ_ADDRESS, sampleIssuer } from './samples.js';

export interface InvoiceScenario {
  readonly issuer: IssuerProfile;
  readonly body: Record<string, unknown>;
  /** Pass as `now` to validateInvoiceRequest (2026: IBS/CBS mandatory for CRT 3). */
  readonly now: Date;
}

const NOW = new Date('2026-06-15T15:00:00Z');
const digits = (n: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: n, maxLength: n });
const alnum12 = fc.string({ unit: fc.constantFrom(...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'), minLength: 12, maxLength: 12 });

/** CPF (11 digits), numeric CNPJ, alphanumeric CNPJ — shapes only, as the rules check. */
export const taxIdArbitrary = fc.oneof(
  digits(11),
  digits(14),
  fc.tuple(alnum12, digits(2)).map(([a, b]) => a + b),
);

/** An NFS-e carries any CST (the DPS names it, the national environment applies it); an NF-e's group is CST 000's. */
const ibsCbsArbitrary = (csts: readonly string[]) =>
  fc.record({
    cst: fc.constantFrom(...csts),
    classification: fc.constantFrom('000001', '200001', '410001'),
    rate_state: percentArb(0, 1),
    rate_city: percentArb(0, 1),
    rate_federal: percentArb(0, 9),
  });
const nfeIbsCbsArbitrary = ibsCbsArbitrary(['000']);

const BUYER_PLACES = [
  { city_code: '3550308', city: 'Sao Paulo', state: 'SP', zip_code: '01310100', cfop: '5102' },
  { city_code: '3509502', city: 'Campinas', state: 'SP', zip_code: '13010000', cfop: '5405' },
  { city_code: '3304557', city: 'Rio de Janeiro', state: 'RJ', zip_code: '20000000', cfop: '6102' },
  { city_code: '4106902', city: 'Curitiba', state: 'PR', zip_code: '80000000', cfop: '6108' },
];

const buyerArbitrary = fc.record({
  taxId: taxIdArbitrary,
  place: fc.constantFrom(...BUYER_PLACES),
  name: fc.constantFrom('Maria da Silva', 'Comércio Ação Ltda', 'José Äpfel'),
});

/** quantity (≤ 4 places, ≥ 1), unit price (2 or 10 places) and the matching gross. */
const valuesArbitrary = fc
  .record({
    quantity: fc.integer({ min: 10_000, max: 10_000_000 }).map((n) => new Dec(n).dividedBy(10_000).toFixed()),
    price: fc.oneof(
      fc.integer({ min: 1, max: 10_000_000 }).map((c) => new Dec(c).dividedBy(100).toFixed(2)),
      fc.bigInt({ min: 1n, max: 10_000_000_000_000n }).map((n) => new Dec(n.toString()).dividedBy('1e10').toFixed(10)),
    ),
    mode: fc.constantFrom('unit_price', 'amount', 'both'),
    discountShare: fc.integer({ min: 0, max: 100 }),
    freight: fc.integer({ min: 0, max: 5000 }),
    insurance: fc.integer({ min: 0, max: 500 }),
    other: fc.integer({ min: 0, max: 500 }),
  })
  .filter(({ quantity, price }) => round2(new Dec(quantity).times(price)).gt(0))
  .map(({ quantity, price, mode, discountShare, freight, insurance, other }) => {
    const gross = round2(new Dec(quantity).times(price));
    const discount = round2(
      gross
        .times(discountShare)
        .dividedBy(100)
        .times(discountShare > 80 ? 0 : 1),
    ).toFixed(2);
    const amounts =
      mode === 'unit_price'
        ? { unit_price: price }
        : mode === 'amount'
          ? { amount: gross.toFixed(2) }
          : { unit_price: price, amount: gross.toFixed(2) };
    // NF-e values: quantity and the additions under product; the line's unit_price / amount at the item.
    return {
      amounts,
      product: {
        quantity,
        discount,
        ...(freight > 0 ? { freight: (freight / 100).toFixed(2) } : {}),
        ...(insurance > 0 ? { insurance: (insurance / 100).toFixed(2) } : {}),
        ...(other > 0 ? { other_expenses: (other / 100).toFixed(2) } : {}),
      },
    };
  });

const socialArbitrary = (name: 'pis' | 'cofins') =>
  fc.oneof(
    fc.record({ cst: fc.constantFrom('01', '02'), rate: percentArb(0, name === 'pis' ? 2 : 8) }),
    fc.record({ cst: fc.constant('03'), quantity_rate: fc.integer({ min: 0, max: 99999 }).map((n) => (n / 10000).toFixed(4)) }),
    fc.record({ cst: fc.constantFrom('04', '05', '06', '07', '08', '09') }),
    fc.record({ cst: fc.constantFrom('49', '50', '99'), rate: percentArb(0, 8) }),
  );
/** DIFAL decision for an interstate sale to a non-contributor final consumer. */
const icmsDestinationArbitrary = fc
  .record({
    rate: fc.constantFrom('17', '18', '19', '20.5'),
    interstate_rate: fc.constantFrom('4' as const, '7' as const, '12' as const),
    fcp_rate: fc.option(fc.constantFrom('1', '2'), { nil: undefined }),
  })
  .map((d) => Object.fromEntries(Object.entries(d).filter(([, v]) => v !== undefined)));

const ipiArbitrary = fc.option(
  fc.oneof(fc.record({ cst: fc.constantFrom('00', '50', '99'), rate: percentArb(0, 20) }), fc.record({ cst: fc.constantFrom('52', '53') })),
  { nil: undefined },
);

/** One ICMS decision for the regime, every group of that regime reachable. */
export function icmsArbitrary(regime: TaxRegime): fc.Arbitrary<Record<string, unknown>> {
  const table = regime === 'simples_nacional' || regime === 'mei' ? CSOSN_GROUP_ARBITRARIES : CST_GROUP_ARBITRARIES;
  return fc.oneof(...Object.values(table));
}

export interface ScenarioOptions {
  readonly minItems?: number;
  readonly maxItems?: number;
}

const regimeArbitrary = fc.constantFrom<TaxRegime>('normal', 'simples_nacional', 'simples_nacional_excess', 'mei');

/** A valid NF-e scenario: 1–200 items (default), every ICMS group, IBS/CBS, CPF / CNPJ / alphanumeric CNPJ. */
export function nfeScenarioArbitrary(options: ScenarioOptions = {}): fc.Arbitrary<InvoiceScenario> {
  return fc
    .tuple(regimeArbitrary, buyerArbitrary)
    .chain(([regime, buyer]) =>
      fc.record({
        regime: fc.constant(regime),
        buyer: fc.constant(buyer),
        items: fc.array(
          fc.record({
            values: valuesArbitrary,
            icms: icmsArbitrary(regime),
            ipi: ipiArbitrary,
            pis: socialArbitrary('pis'),
            cofins: socialArbitrary('cofins'),
            ibs: regime === 'normal' ? nfeIbsCbsArbitrary : fc.option(nfeIbsCbsArbitrary, { nil: undefined }),
            difal: icmsDestinationArbitrary,
            difalForSimples: fc.boolean(),
            gtin: fc.constantFrom(undefined, '7891000315507', '96385074', '036000291452', '17891000315504'),
          }),
          { minLength: options.minItems ?? 1, maxLength: options.maxItems ?? 200 },
        ),
        additionalInfo: fc.option(fc.constantFrom('Pedido 123', 'Entrega à tarde; portão 2'), { nil: undefined }),
      }),
    )
    .map(({ regime, buyer, items, additionalInfo }) => {
      const cpf = buyer.taxId.length === 11;
      // CPF buyers have no IE here, so an interstate sale to them is the DIFAL case (ICMSUFDest): required for
      // CST issuers, optional for Simples Nacional / MEI.
      const difalCase = cpf && buyer.place.cfop.startsWith('6');
      const csosn = regime === 'simples_nacional' || regime === 'mei';
      return {
        issuer: sampleIssuer(regime),
        now: NOW,
        body: {
          document_type: 'nfe',
          client_name: buyer.name,
          tax_id: buyer.taxId,
          ...(cpf ? {} : { client_state_registration: '123456789' }),
          recipient_address: {
            street: 'Rua das Flores',
            number: '10',
            neighborhood: 'Centro',
            city: buyer.place.city,
            state: buyer.place.state,
            zip_code: buyer.place.zip_code,
            city_code: buyer.place.city_code,
          },
          items: items.map((item, i) => ({
            description: `Produto ${i + 1}`,
            ...item.values.amounts,
            product: {
              code: `P${i + 1}`,
              ...item.values.product,
              unit: 'UN',
              ...(item.gtin ? { barcode: item.gtin } : {}),
              br: {
                ncm: '61091000',
                cfop: buyer.place.cfop,
                tax: {
                  icms: item.icms,
                  ...(difalCase && (!csosn || item.difalForSimples) ? { icms_destination: item.difal } : {}),
                  ...(item.ipi ? { ipi: item.ipi } : {}),
                  pis: item.pis,
                  cofins: item.cofins,
                },
                ...(item.ibs ? { ibs_cbs: item.ibs } : {}),
              },
            },
          })),
          ...(additionalInfo ? { additional_info: additionalInfo } : {}),
        },
      };
    });
}

/** A valid NFS-e scenario: 1–20 items of one service, optional IBS/CBS (mandatory for CRT 3), ISS withheld or not, observations. */
export function nfseScenarioArbitrary(options: ScenarioOptions = {}): fc.Arbitrary<InvoiceScenario> {
  return fc
    .record({
      regime: fc.constantFrom<TaxRegime>('normal', 'simples_nacional', 'mei'),
      // DPS v1.01 has no alphanumeric CNPJ: CPF or numeric CNPJ only.
      taxId: fc.oneof(digits(11), digits(14)),
      service: fc.constantFrom('1.07', '01.03.02', '170101', '7.02'),
      withAddress: fc.boolean(),
      count: fc.integer({ min: options.minItems ?? 1, max: options.maxItems ?? 20 }),
      values: fc.array(valuesArbitrary, { minLength: 20, maxLength: 20 }),
      ibs: ibsCbsArbitrary(['000', '200', '410']),
      withIbs: fc.boolean(),
      retained: fc.boolean(),
      observations: fc.option(fc.constantFrom('Referente ao contrato 12/2026', 'Retenção conforme LC 116/2003, art. 6º'), {
        nil: undefined,
      }),
    })
    .map(({ regime, taxId, service, withAddress, count, values, ibs, withIbs, retained, observations }) => ({
      issuer: sampleIssuer(regime),
      now: NOW,
      body: {
        document_type: 'nfse',
        client_name: 'Tomador de Servicos',
        tax_id: taxId,
        ...(withAddress
          ? {
              recipient_address: SAMPLE_RJ_ADDRESS,
            }
          : {}),
        items: values.slice(0, count).map((v, i) => ({
          description: `Servico ${i + 1}`,
          ...v.amounts,
          // An NFS-e line: quantity (default 1) under product, the service discount at the item.
          ...(v.product.quantity === '1' ? {} : { product: { quantity: v.product.quantity } }),
          ...(v.product.discount === '0.00' ? {} : { discount: v.product.discount }),
          service_code: service,
          ...(retained ? { tax_retained: true } : {}),
          ...(observations && i === 0 ? { observations } : {}),
          ...(regime === 'normal' || withIbs ? { ibs_cbs: ibs } : {}),
        })),
      },
    }));
}
