import { EllipsisOutlined } from '@ant-design/icons';
import { Button, Dropdown, Space, theme } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface ToolbarButtonsProps {
  /** The toolbar's buttons, the primary one first. */
  buttons: ReactNode[];
  /** Narrow screens: the first button stays, the others move into a 更多 menu. */
  compact: boolean;
}

/** The buttons above the table; on a phone one row would wrap into several, so they fold. */
export function ToolbarButtons({ buttons, compact }: ToolbarButtonsProps) {
  const { t } = useTranslation('crud');
  const { token } = theme.useToken();
  const [open, setOpen] = useState(false);
  if (!compact || buttons.length < 2) return <Space wrap>{buttons}</Space>;
  const [first, ...rest] = buttons;
  return (
    <Space>
      {first}
      <Dropdown
        open={open}
        onOpenChange={setOpen}
        trigger={['click']}
        // Next to its button in the page, so Tab moves from 更多 into the menu's buttons.
        getPopupContainer={(trigger) => trigger.parentElement ?? document.body}
        popupRender={() => (
          <div
            className="mes-crud-more"
            data-testid="crud-more-menu"
            style={{
              background: token.colorBgElevated,
              boxShadow: token.boxShadowSecondary,
              borderRadius: token.borderRadiusLG,
            }}
            // A button's own click has run by now (a dialog opens): the menu has done its job.
            onClick={() => setOpen(false)}
          >
            {rest}
          </div>
        )}
      >
        <Button icon={<EllipsisOutlined />} data-testid="crud-more">
          {t('more')}
        </Button>
      </Dropdown>
    </Space>
  );
}
