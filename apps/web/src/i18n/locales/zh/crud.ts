export const crud = {
  placeholder: '',
};
