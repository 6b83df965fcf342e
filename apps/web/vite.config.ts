import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/**
 * antd's text input reads a context from `antd/es/form/context`, which imports rc-field-form's
 * index for `FormProvider` alone; that index attaches Field, List and useForm to the form component
 * as side effects, so the whole form library and its validator (≈14 KB gzip) came with /login's
 * first load (budget 250 KB, docs/sign-in.md). There it is taken from the module that defines it:
 * the same object, without the rest. Screens with forms load rc-field-form as before.
 */
const formContextWithoutForms: Plugin = {
  name: 'mes-form-context-without-forms',
  enforce: 'pre',
  resolveId(source, importer) {
    if (source !== 'rc-field-form' || !importer || !/[\\/]antd[\\/]es[\\/]form[\\/]context\.js$/.test(importer)) {
      return null;
    }
    return this.resolve('rc-field-form/es/FormContext', importer, { skipSelf: true });
  },
};

export default defineConfig({
  plugins: [formContextWithoutForms, react()],
  server: {
    // `npm run dev -w @mes/web` talks to a server started with `npm start` on the default port.
    proxy: { '/api': 'http://127.0.0.1:8080' },
  },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false },
});
