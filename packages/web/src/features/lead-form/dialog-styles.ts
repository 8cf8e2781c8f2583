// Styles of Mantine's Modal (and what it is built on): imported by the lazily loaded dialogs only, so
// they arrive with them rather than in the public pages' blocking stylesheet (ADR 053).
import '@mantine/core/styles/Overlay.layer.css';
import '@mantine/core/styles/CloseButton.layer.css';
import '@mantine/core/styles/ModalBase.layer.css';
import '@mantine/core/styles/Modal.layer.css';
