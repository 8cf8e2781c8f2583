// The one render-blocking stylesheet of the public pages (ADR 053): Mantine's global styles and the
// styles of the components the prerendered public pages show at first paint, in the order of Mantine's
// own styles.css (a component's dependencies first). Everything else arrives with the code that needs
// it: the dialogs' styles with the post-submit chunk, the toasts' with the notifications chunk, the whole
// library with the admin area. The `.layer.css` files put Mantine in `@layer mantine`, so the app's own
// rules win whatever order lazily loaded sheets arrive in.
import '@mantine/core/styles/baseline.layer.css';
import '@mantine/core/styles/default-css-variables.layer.css';
import '@mantine/core/styles/global.layer.css';
import '@mantine/core/styles/UnstyledButton.layer.css';
import '@mantine/core/styles/VisuallyHidden.layer.css';
import '@mantine/core/styles/Paper.layer.css';
import '@mantine/core/styles/Loader.layer.css';
import '@mantine/core/styles/Group.layer.css';
import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/Accordion.layer.css';
import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/Text.layer.css';
import '@mantine/core/styles/Anchor.layer.css';
import '@mantine/core/styles/InlineInput.layer.css';
import '@mantine/core/styles/CheckboxIndicator.layer.css';
import '@mantine/core/styles/Checkbox.layer.css';
import '@mantine/core/styles/Badge.layer.css';
import '@mantine/core/styles/Button.layer.css';
import '@mantine/core/styles/Card.layer.css';
// Centers the first screen of a page behind sign-in (admin-boot.css).
import '@mantine/core/styles/Center.layer.css';
import '@mantine/core/styles/Container.layer.css';
import '@mantine/core/styles/Divider.layer.css';
import '@mantine/core/styles/Grid.layer.css';
import '@mantine/core/styles/List.layer.css';
import '@mantine/core/styles/SimpleGrid.layer.css';
import '@mantine/core/styles/Stack.layer.css';
import '@mantine/core/styles/ThemeIcon.layer.css';
import '@mantine/core/styles/Title.layer.css';
// The landing page's own art: in this sheet too, so the prerendered hero is styled at first paint.
import './features/lead-form/hero-art.css';
// A visible focus ring on text inputs and selects too (all pages: this sheet loads everywhere).
import './focus-ring.css';
// Phone-sized form text, and a submit's busy mark before the app runs (ADR 057).
import './public-form.css';
// The first screen of a page behind sign-in, shown until the app has put its page in place (ADR 071).
import './admin-boot.css';
