// The post-submit screens, split from the landing bundle (loaded on demand by landing-page.tsx).
export { BeneficiaryDialog } from './beneficiary-dialog';
export { BeneficiaryForm } from './beneficiary-form';
export { Congratulations } from './congratulations';
