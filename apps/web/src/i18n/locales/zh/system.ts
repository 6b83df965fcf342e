export const system = {
  placeholder: '',
};
