import { CategorySchema } from './category.ts';
import { ContactSchema } from './contact.ts';
import { CostCenterSchema } from './cost-center.ts';
import { PersonalConfigSchema } from './personal-config.ts';
import { SubcategorySchema } from './subcategory.ts';
import { TagSchema } from './tag.ts';

/** Reference data, preferences and business records (categories slice). */
export const referenceEntities = [
  CategorySchema,
  SubcategorySchema,
  TagSchema,
  PersonalConfigSchema,
  ContactSchema,
  CostCenterSchema,
];
