// Error messages of the simulated Sefin Nacional / ADN. The national error table is not part of the reference data
// in ../shared/fiscal, so only the codes documented there or by implementers keep their real numbers (E0714: DPS
// signed with the wrong profile; E3317: expired certificate; E0712/E0713: the approximate taxes of an ME/EPP and of a
// provider outside the Simples, as integrators report them); the others carry the simulator's own SIM codes.
export const NFSE_ERRORS = {
  badRequest: { codigo: 'SIM0001', descricao: 'Requisição inválida: JSON com o XML compactado (gZip + base64) esperado' },
  badPayload: { codigo: 'SIM0002', descricao: 'Conteúdo compactado inválido' },
  schema: { codigo: 'SIM0003', descricao: 'Falha no schema XML' },
  environment: { codigo: 'SIM0004', descricao: 'Ambiente informado diverge do ambiente de recebimento' },
  signatureProfile: { codigo: 'E0714', descricao: 'Assinatura fora do padrão: RSA-SHA256 com C14N exclusiva esperada' },
  signature: { codigo: 'SIM0005', descricao: 'Assinatura difere do calculado' },
  chain: { codigo: 'SIM0006', descricao: 'Certificado de assinatura não emitido por autoridade confiável' },
  expired: { codigo: 'E3317', descricao: 'Certificado expirado' },
  signerNotAuthor: { codigo: 'SIM0007', descricao: 'CNPJ/CPF do certificado difere do autor do documento' },
  duplicateDps: { codigo: 'SIM0009', descricao: 'DPS já processada: existe NFS-e para o identificador informado' },
  notFound: { codigo: 'SIM0404', descricao: 'Documento não encontrado' },
  eventKey: { codigo: 'SIM0010', descricao: 'Chave de acesso do pedido difere da chave do recurso' },
  eventId: { codigo: 'SIM0011', descricao: 'Identificador do pedido de registro de evento inválido' },
  notProvider: { codigo: 'SIM0012', descricao: 'Evento permitido somente ao prestador da NFS-e' },
  alreadyCancelled: { codigo: 'SIM0013', descricao: 'NFS-e já cancelada' },
  eventType: { codigo: 'SIM0014', descricao: 'Tipo de evento não simulado' },
  forced: { codigo: '', descricao: 'Rejeição forçada pelo simulador' },
  approximateTaxesNotOptant: {
    codigo: 'E0713',
    descricao:
      'Para Não Optante do SN os campos, indicador de informação de valor total de tributos e percentual aproximado do total dos tributos da alíquota do Simples Nacional (%), não podem ser informados.',
  },
  approximateTaxesSimples: {
    codigo: 'E0712',
    descricao: 'Para ME/EPP optante do SN o indicador de informação de valor total de tributos não pode ser informado.',
  },
} as const;

export type NfseError = { codigo: string; descricao: string; complemento?: string };
