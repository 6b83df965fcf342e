export const dict = {
  placeholder: '',
};
