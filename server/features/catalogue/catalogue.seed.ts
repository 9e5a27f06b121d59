import { count, sql } from 'drizzle-orm';
import type { ServiceField } from '../../../shared/schemas/catalogue';
import type { Db } from '../../db/client';
import { service } from '../../db/schema/catalogue';

type SeedService = typeof service.$inferInsert;

/** Any fixed number: concurrent starts take the same lock, so only one of them seeds. */
const SEED_LOCK_ID = 724_110_050;

const IMEI_FIELD: ServiceField = {
  key: 'imei',
  label: 'IMEI',
  type: 'imei',
  required: true,
  hint: 'Marca *#06# en el teléfono para ver el IMEI (15 dígitos).',
  identifier: true,
};

function modelField(options: string[]): ServiceField {
  return { key: 'modelo', label: 'Modelo', type: 'select', required: true, options };
}

const EMAIL_FIELD: ServiceField = {
  key: 'email',
  label: 'Correo electrónico de entrega',
  type: 'email',
  required: true,
  hint: 'Te enviaremos aquí la clave o los datos de acceso.',
};

function playerIdField(hint: string): ServiceField {
  return {
    key: 'player_id',
    label: 'ID de jugador',
    type: 'number',
    required: true,
    min: 1,
    max: 999_999_999_999,
    hint,
    identifier: true,
  };
}

function linkField(label: string, hint: string): ServiceField {
  return { key: 'link', label, type: 'url', required: true, hint, identifier: true };
}

const APPLE_SAMSUNG_MODELS = ['iPhone', 'Samsung Galaxy', 'Motorola', 'Otro Android'];

/** The demo catalogue: realistic Spanish services, three or more per category. Prices in cents. */
export const DEMO_SERVICES: SeedService[] = [
  // IMEI
  {
    category: 'IMEI',
    name: 'Consulta IMEI completa (operador, bloqueo, garantía)',
    description:
      'Informe con el operador de origen, el estado de bloqueo y la garantía del equipo. Útil antes de comprar un teléfono usado.',
    deliveryTime: 'Instantáneo',
    price: 50n,
    fields: [IMEI_FIELD],
    sortOrder: 10,
  },
  {
    category: 'IMEI',
    name: 'Estado de iCloud (Find My iPhone)',
    description:
      'Indica si «Buscar mi iPhone» está activado (ON/OFF). Puedes volver a consultarlo tras la reparación o el cierre de sesión.',
    deliveryTime: 'Instantáneo',
    price: 25n,
    fields: [IMEI_FIELD],
    allowRecheck: true,
    sortOrder: 20,
  },
  {
    category: 'IMEI',
    name: 'Consulta de lista negra GSMA',
    description:
      'Comprueba si el IMEI está reportado por robo, pérdida o impago en la base de datos GSMA.',
    deliveryTime: '1–5 minutos',
    price: 30n,
    fields: [IMEI_FIELD],
    sortOrder: 30,
  },
  // unlock
  {
    category: 'unlock',
    name: 'Desbloqueo de operador — AT&T (EE. UU.)',
    description:
      'Desbloqueo oficial de red para equipos de AT&T. El equipo no debe estar reportado ni tener deuda pendiente.',
    deliveryTime: '1–5 días hábiles',
    price: 1999n,
    fields: [IMEI_FIELD, modelField(APPLE_SAMSUNG_MODELS)],
    sortOrder: 10,
  },
  {
    category: 'unlock',
    name: 'Desbloqueo de operador — Telcel (México)',
    description:
      'Liberación de equipos bloqueados a la red Telcel para usarlos con cualquier compañía. Recibes el código o la confirmación por IMEI.',
    deliveryTime: '1–3 días hábiles',
    price: 1450n,
    fields: [IMEI_FIELD, modelField(['iPhone', 'Samsung Galaxy', 'Motorola', 'Huawei', 'Otro'])],
    sortOrder: 20,
  },
  {
    category: 'unlock',
    name: 'Desbloqueo de operador — Movistar (España)',
    description:
      'Liberación oficial por IMEI de terminales de Movistar España. No requiere enviar el teléfono.',
    deliveryTime: '1–5 días hábiles',
    price: 1200n,
    fields: [IMEI_FIELD, modelField(['iPhone', 'Samsung Galaxy', 'Xiaomi', 'Otro'])],
    sortOrder: 30,
  },
  // licenses
  {
    category: 'licenses',
    name: 'Windows 11 Pro — clave de por vida',
    description:
      'Clave de activación original para una PC. La recibes por correo con las instrucciones de activación.',
    deliveryTime: 'Instantáneo',
    price: 999n,
    fields: [EMAIL_FIELD],
    sortOrder: 10,
  },
  {
    category: 'licenses',
    name: 'Microsoft Office 2021 Hogar y Empresas',
    description:
      'Licencia perpetua para una PC o Mac con Word, Excel, PowerPoint y Outlook. Se vincula a tu cuenta Microsoft.',
    deliveryTime: '1–24 horas',
    price: 1900n,
    fields: [EMAIL_FIELD],
    sortOrder: 20,
  },
  {
    category: 'licenses',
    name: 'Antivirus ESET NOD32 — 1 año',
    description:
      'Licencia de un año para un equipo Windows. Incluye actualizaciones durante la vigencia.',
    deliveryTime: 'Instantáneo',
    price: 650n,
    fields: [EMAIL_FIELD],
    sortOrder: 30,
  },
  // streaming
  {
    category: 'streaming',
    name: 'Netflix Premium — 1 mes',
    description:
      'Un mes de Netflix Premium en calidad 4K. Te enviamos los datos de acceso al correo indicado.',
    deliveryTime: '1–24 horas',
    price: 799n,
    fields: [EMAIL_FIELD],
    sortOrder: 10,
  },
  {
    category: 'streaming',
    name: 'Spotify Premium — 3 meses',
    description: 'Tres meses de música sin anuncios y con descargas. Se activa sobre tu cuenta.',
    deliveryTime: '1–24 horas',
    price: 1150n,
    fields: [EMAIL_FIELD],
    sortOrder: 20,
  },
  {
    category: 'streaming',
    name: 'Disney+ — 1 mes',
    description: 'Un mes de Disney+ con Marvel, Star Wars y Pixar. Acceso enviado por correo.',
    deliveryTime: '1–24 horas',
    price: 600n,
    fields: [EMAIL_FIELD],
    sortOrder: 30,
  },
  // gaming
  {
    category: 'gaming',
    name: 'Free Fire — 1060 diamantes',
    description:
      'Recarga directa de 1060 diamantes a tu cuenta de Free Fire. Solo necesitas tu ID de jugador.',
    deliveryTime: '1–30 minutos',
    price: 950n,
    fields: [playerIdField('Lo ves en tu perfil del juego, debajo del apodo.')],
    sortOrder: 10,
  },
  {
    category: 'gaming',
    name: 'PUBG Mobile — 660 UC',
    description: 'Recarga de 660 UC directa a tu cuenta de PUBG Mobile mediante tu ID de jugador.',
    deliveryTime: '1–30 minutos',
    price: 900n,
    fields: [playerIdField('Lo ves en tu perfil del juego, junto a tu nombre.')],
    sortOrder: 20,
  },
  {
    category: 'gaming',
    name: 'Tarjeta Steam — US$20',
    description:
      'Código de tarjeta regalo de Steam por 20 USD, válido para cuentas de la región EE. UU.',
    deliveryTime: 'Instantáneo',
    price: 2150n,
    fields: [EMAIL_FIELD],
    sortOrder: 30,
  },
  // social (priced per 1000 units)
  {
    category: 'social',
    name: 'Seguidores de Instagram',
    description:
      'Seguidores de perfiles reales con inicio gradual. La cuenta debe ser pública mientras dure el pedido.',
    deliveryTime: '1–24 horas',
    price: 150n,
    unit: '1000',
    minQuantity: 100,
    maxQuantity: 10_000,
    fields: [linkField('Enlace del perfil', 'Por ejemplo https://instagram.com/tu_usuario')],
    sortOrder: 10,
  },
  {
    category: 'social',
    name: 'Me gusta en TikTok',
    description: 'Me gusta para un video de TikTok, entregados de forma progresiva.',
    deliveryTime: '1–24 horas',
    price: 90n,
    unit: '1000',
    minQuantity: 100,
    maxQuantity: 50_000,
    fields: [linkField('Enlace del video', 'Copia el enlace desde «Compartir» en TikTok.')],
    sortOrder: 20,
  },
  {
    category: 'social',
    name: 'Vistas de YouTube',
    description: 'Vistas para un video público de YouTube con retención natural.',
    deliveryTime: '1–3 días hábiles',
    price: 220n,
    unit: '1000',
    minQuantity: 500,
    maxQuantity: 100_000,
    fields: [linkField('Enlace del video', 'Por ejemplo https://youtu.be/…')],
    sortOrder: 30,
  },
  // cleanimei
  {
    category: 'cleanimei',
    name: 'Limpieza de reporte de IMEI — Latinoamérica',
    description:
      'Retira el reporte por robo o extravío en operadores de Latinoamérica. No aplica a equipos con deuda.',
    deliveryTime: '72 horas',
    price: 2500n,
    fields: [IMEI_FIELD],
    sortOrder: 10,
  },
  {
    category: 'cleanimei',
    name: 'Limpieza de IMEI — EE. UU. (Clean ESN)',
    description:
      'Limpia el estado del IMEI en la base de datos de operadores de EE. UU. para que vuelva a ser «Clean».',
    deliveryTime: '1–5 días hábiles',
    price: 3500n,
    fields: [IMEI_FIELD, modelField(APPLE_SAMSUNG_MODELS)],
    sortOrder: 20,
  },
  {
    category: 'cleanimei',
    name: 'Eliminación de bloqueo por impago — México',
    description:
      'Elimina el bloqueo por saldo pendiente en operadores de México. Verificamos el IMEI antes de procesarlo.',
    deliveryTime: '3–7 días hábiles',
    price: 2900n,
    fields: [IMEI_FIELD],
    sortOrder: 30,
  },
];

/**
 * Inserts the demo catalogue only when there are no services yet. Check and insert run in one
 * transaction under an advisory lock. Returns how many were inserted (0 when not empty).
 */
export async function seedDemoCatalogue(db: Db): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${SEED_LOCK_ID})`);
    const [existing] = await tx.select({ n: count() }).from(service);
    if (Number(existing?.n ?? 0) > 0) return 0;
    const inserted = await tx.insert(service).values(DEMO_SERVICES).returning({ id: service.id });
    return inserted.length;
  });
}
