import { Migration } from '@mikro-orm/migrations';

type Sub = [id: string, name: string, isEssential: boolean, iconName: string];
type Cat = [
  id: string,
  name: string,
  isExpense: boolean,
  isEssential: boolean,
  iconName: string,
  color: string,
  dreGroup: string,
  subs: Sub[],
];

/** The system set (user_id null): fixed ids so references stay valid across databases; never renumber. */
const SYSTEM_CATEGORIES: Cat[] = [
  [
    'c0000000-0000-4000-8000-000000000001',
    'Alimentação',
    true,
    true,
    'utensils',
    '#F97316',
    'despesas_operacionais',
    [
      ['5c000000-0000-4000-8000-000100000001', 'Supermercado', true, 'shopping-cart'],
      ['5c000000-0000-4000-8000-000100000002', 'Restaurantes', false, 'utensils-crossed'],
      ['5c000000-0000-4000-8000-000100000003', 'Delivery', false, 'bike'],
      ['5c000000-0000-4000-8000-000100000004', 'Padaria', true, 'croissant'],
    ],
  ],
  [
    'c0000000-0000-4000-8000-000000000002',
    'Moradia',
    true,
    true,
    'house',
    '#0EA5E9',
    'despesas_operacionais',
    [
      ['5c000000-0000-4000-8000-000200000001', 'Aluguel', true, 'key-round'],
      ['5c000000-0000-4000-8000-000200000002', 'Condomínio', true, 'building'],
      ['5c000000-0000-4000-8000-000200000003', 'Energia', true, 'zap'],
      ['5c000000-0000-4000-8000-000200000004', 'Água', true, 'droplet'],
      ['5c000000-0000-4000-8000-000200000005', 'Internet', true, 'wifi'],
      ['5c000000-0000-4000-8000-000200000006', 'IPTU', true, 'landmark'],
    ],
  ],
  [
    'c0000000-0000-4000-8000-000000000003',
    'Transporte',
    true,
    true,
    'car',
    '#6366F1',
    'despesas_operacionais',
    [
      ['5c000000-0000-4000-8000-000300000001', 'Combustível', true, 'fuel'],
      ['5c000000-0000-4000-8000-000300000002', 'Transporte público', true, 'bus'],
      ['5c000000-0000-4000-8000-000300000003', 'Aplicativos', false, 'smartphone'],
      ['5c000000-0000-4000-8000-000300000004', 'Estacionamento', false, 'square-parking'],
      ['5c000000-0000-4000-8000-000300000005', 'Manutenção', true, 'wrench'],
    ],
  ],
  [
    'c0000000-0000-4000-8000-000000000004',
    'Saúde',
    true,
    true,
    'heart-pulse',
    '#EF4444',
    'despesas_operacionais',
    [
      ['5c000000-0000-4000-8000-000400000001', 'Plano de saúde', true, 'shield-plus'],
      ['5c000000-0000-4000-8000-000400000002', 'Farmácia', true, 'pill'],
      ['5c000000-0000-4000-8000-000400000003', 'Consultas', true, 'stethoscope'],
      ['5c000000-0000-4000-8000-000400000004', 'Exames', true, 'microscope'],
    ],
  ],
  [
    'c0000000-0000-4000-8000-000000000005',
    'Educação',
    true,
    true,
    'graduation-cap',
    '#8B5CF6',
    'despesas_operacionais',
    [
      ['5c000000-0000-4000-8000-000500000001', 'Mensalidade escolar', true, 'school'],
      ['5c000000-0000-4000-8000-000500000002', 'Cursos', false, 'book-open'],
      ['5c000000-0000-4000-8000-000500000003', 'Livros e material', false, 'library'],
    ],
  ],
  [
    'c0000000-0000-4000-8000-000000000006',
    'Lazer',
    true,
    false,
    'party-popper',
    '#EC4899',
    'despesas_operacionais',
    [
      ['5c000000-0000-4000-8000-000600000001', 'Cinema e teatro', false, 'clapperboard'],
      ['5c000000-0000-4000-8000-000600000002', 'Shows e eventos', false, 'ticket'],
      ['5c000000-0000-4000-8000-000600000003', 'Bares', false, 'beer'],
      ['5c000000-0000-4000-8000-000600000004', 'Hobbies', false, 'palette'],
    ],
  ],
  [
    'c0000000-0000-4000-8000-000000000007',
    'Compras',
    true,
    false,
    'shopping-bag',
    '#F59E0B',
    'custos',
    [
      ['5c000000-0000-4000-8000-000700000001', 'Roupas e calçados', false, 'shirt'],
      ['5c000000-0000-4000-8000-000700000002', 'Eletrônicos', false, 'monitor-smartphone'],
      ['5c000000-0000-4000-8000-000700000003', 'Casa e decoração', false, 'sofa'],
    ],
  ],
  [
    'c0000000-0000-4000-8000-000000000008',
    'Assinaturas e serviços',
    true,
    false,
    'repeat',
    '#14B8A6',
    'despesas_operacionais',
    [
      ['5c000000-0000-4000-8000-000800000001', 'Streaming', false, 'tv'],
      ['5c000000-0000-4000-8000-000800000002', 'Telefonia', true, 'phone'],
      ['5c000000-0000-4000-8000-000800000003', 'Software e aplicativos', false, 'app-window'],
      ['5c000000-0000-4000-8000-000800000004', 'Academia', false, 'dumbbell'],
    ],
  ],
  [
    'c0000000-0000-4000-8000-000000000009',
    'Impostos e taxas',
    true,
    true,
    'receipt',
    '#64748B',
    'financeiro',
    [
      ['5c000000-0000-4000-8000-000900000001', 'IOF', true, 'percent'],
      ['5c000000-0000-4000-8000-000900000002', 'Tarifas bancárias', true, 'banknote'],
      ['5c000000-0000-4000-8000-000900000003', 'Juros', true, 'trending-down'],
      ['5c000000-0000-4000-8000-000900000004', 'Imposto de renda', true, 'file-text'],
      ['5c000000-0000-4000-8000-000900000005', 'Multas', true, 'triangle-alert'],
    ],
  ],
  [
    'c0000000-0000-4000-8000-000000000010',
    'Pets',
    true,
    false,
    'paw-print',
    '#A16207',
    'despesas_operacionais',
    [
      ['5c000000-0000-4000-8000-001000000001', 'Ração', true, 'bone'],
      ['5c000000-0000-4000-8000-001000000002', 'Veterinário', true, 'syringe'],
      ['5c000000-0000-4000-8000-001000000003', 'Banho e tosa', false, 'bath'],
    ],
  ],
  [
    'c0000000-0000-4000-8000-000000000011',
    'Viagem',
    true,
    false,
    'plane',
    '#0891B2',
    'despesas_operacionais',
    [
      ['5c000000-0000-4000-8000-001100000001', 'Passagens', false, 'plane-takeoff'],
      ['5c000000-0000-4000-8000-001100000002', 'Hospedagem', false, 'bed'],
      ['5c000000-0000-4000-8000-001100000003', 'Passeios', false, 'map'],
    ],
  ],
  [
    'c0000000-0000-4000-8000-000000000012',
    'Cuidados pessoais',
    true,
    false,
    'sparkles',
    '#D946EF',
    'despesas_operacionais',
    [
      ['5c000000-0000-4000-8000-001200000001', 'Salão e barbearia', false, 'scissors'],
      ['5c000000-0000-4000-8000-001200000002', 'Cosméticos', false, 'spray-can'],
      ['5c000000-0000-4000-8000-001200000003', 'Estética', false, 'sparkle'],
    ],
  ],
  [
    'c0000000-0000-4000-8000-000000000013',
    'Presentes e doações',
    true,
    false,
    'gift',
    '#E11D48',
    'despesas_operacionais',
    [
      ['5c000000-0000-4000-8000-001300000001', 'Presentes', false, 'gift'],
      ['5c000000-0000-4000-8000-001300000002', 'Doações', false, 'hand-heart'],
      ['5c000000-0000-4000-8000-001300000003', 'Dízimo', false, 'church'],
    ],
  ],
  [
    'c0000000-0000-4000-8000-000000000014',
    'Investimentos',
    true,
    false,
    'trending-up',
    '#16A34A',
    'investimento',
    [
      ['5c000000-0000-4000-8000-001400000001', 'Aplicações', false, 'chart-line'],
      ['5c000000-0000-4000-8000-001400000002', 'Previdência privada', false, 'piggy-bank'],
      ['5c000000-0000-4000-8000-001400000003', 'Reserva de emergência', true, 'shield'],
    ],
  ],
  [
    'c0000000-0000-4000-8000-000000000015',
    'Outros',
    true,
    false,
    'ellipsis',
    '#78716C',
    'despesas_operacionais',
    [
      ['5c000000-0000-4000-8000-001500000001', 'Diversos', false, 'ellipsis'],
      ['5c000000-0000-4000-8000-001500000002', 'Saques', false, 'hand-coins'],
    ],
  ],
  [
    'c0000000-0000-4000-8000-000000000016',
    'Salário',
    false,
    true,
    'briefcase',
    '#22C55E',
    'receita',
    [
      ['5c000000-0000-4000-8000-001600000001', 'Salário mensal', true, 'wallet'],
      ['5c000000-0000-4000-8000-001600000002', '13º salário', true, 'calendar-check'],
      ['5c000000-0000-4000-8000-001600000003', 'Férias', true, 'sun'],
      ['5c000000-0000-4000-8000-001600000004', 'Bônus e PLR', false, 'award'],
    ],
  ],
  [
    'c0000000-0000-4000-8000-000000000017',
    'Pró-labore',
    false,
    true,
    'user-round',
    '#10B981',
    'receita',
    [
      ['5c000000-0000-4000-8000-001700000001', 'Pró-labore mensal', true, 'wallet'],
      ['5c000000-0000-4000-8000-001700000002', 'Distribuição de lucros', false, 'hand-coins'],
    ],
  ],
  [
    'c0000000-0000-4000-8000-000000000018',
    'Freelance',
    false,
    false,
    'laptop',
    '#06B6D4',
    'receita',
    [
      ['5c000000-0000-4000-8000-001800000001', 'Projetos', false, 'folder-kanban'],
      ['5c000000-0000-4000-8000-001800000002', 'Consultoria', false, 'messages-square'],
    ],
  ],
  [
    'c0000000-0000-4000-8000-000000000019',
    'Vendas',
    false,
    false,
    'store',
    '#3B82F6',
    'receita',
    [
      ['5c000000-0000-4000-8000-001900000001', 'Produtos', false, 'package'],
      ['5c000000-0000-4000-8000-001900000002', 'Serviços', false, 'handshake'],
    ],
  ],
  [
    'c0000000-0000-4000-8000-000000000020',
    'Rendimentos',
    false,
    false,
    'piggy-bank',
    '#84CC16',
    'financeiro',
    [
      ['5c000000-0000-4000-8000-002000000001', 'Juros de investimentos', false, 'percent'],
      ['5c000000-0000-4000-8000-002000000002', 'Dividendos', false, 'coins'],
      ['5c000000-0000-4000-8000-002000000003', 'Aluguéis recebidos', false, 'key-round'],
    ],
  ],
  [
    'c0000000-0000-4000-8000-000000000021',
    'Reembolsos',
    false,
    false,
    'rotate-ccw',
    '#0D9488',
    'receita',
    [
      ['5c000000-0000-4000-8000-002100000001', 'Reembolso de despesas', false, 'receipt'],
      ['5c000000-0000-4000-8000-002100000002', 'Estornos', false, 'undo-2'],
    ],
  ],
  [
    'c0000000-0000-4000-8000-000000000022',
    'Outras receitas',
    false,
    false,
    'circle-plus',
    '#65A30D',
    'receita',
    [
      ['5c000000-0000-4000-8000-002200000001', 'Prêmios', false, 'trophy'],
      ['5c000000-0000-4000-8000-002200000002', 'Presentes recebidos', false, 'gift'],
      ['5c000000-0000-4000-8000-002200000003', 'Diversos', false, 'ellipsis'],
    ],
  ],
];

const text = (value: string) => `'${value.replaceAll("'", "''")}'`;
const CREATED = `'2026-01-01T00:00:00.000Z'`;

export class SeedSystemCategories extends Migration {
  override async up(): Promise<void> {
    const categories = SYSTEM_CATEGORIES.map(
      ([id, name, isExpense, isEssential, iconName, color, dreGroup]) =>
        `(${text(id)}, null, null, ${text(name)}, ${isExpense}, ${isEssential}, false, null, ${text(iconName)}, ${text(color)}, null, ${text(dreGroup)}, ${CREATED}, ${CREATED})`,
    );
    this.addSql(
      `insert into categories (id, user_id, profile_id, name, is_expense, is_essential, is_hidden, icon, icon_name, icon_background_color, image, dre_group, created_at, updated_at) values ${categories.join(', ')}`,
    );
    const subcategories = SYSTEM_CATEGORIES.flatMap(([categoryId, , , , , color, , subs]) =>
      subs.map(
        ([id, name, isEssential, iconName]) =>
          `(${text(id)}, ${text(categoryId)}, null, null, ${text(name)}, ${isEssential}, false, ${text(iconName)}, ${text(color)}, null, ${CREATED}, ${CREATED})`,
      ),
    );
    this.addSql(
      `insert into subcategories (id, category_id, user_id, profile_id, name, is_essential, is_hidden, icon_name, icon_background_color, image, created_at, updated_at) values ${subcategories.join(', ')}`,
    );
  }
}
