import type { ComponentType } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { Guard } from './router/guard';
import type { RouteMeta } from './router/route-meta';

const page = (load: () => Promise<{ default: ComponentType }>) => async () => ({ Component: (await load()).default });

const publicRoute = (meta: RouteMeta = {}): RouteMeta => ({ isAuth: false, isTab: false, ...meta });

/** The fixed routes of spec section 2; menu screens resolve through `MenuScreen`. */
export const routes: RouteObject[] = [
  {
    element: <Guard />,
    children: [
      { path: '/login', handle: publicRoute(), lazy: page(() => import('./pages/login/index')) },
      { path: '/lock', handle: publicRoute({ i18n: 'lock' }), lazy: page(() => import('./pages/lock/index')) },
      {
        path: '/oauth/callback',
        handle: publicRoute({ i18n: 'social:callbackTitle' }),
        lazy: page(() => import('./pages/oauth-callback/index')),
      },
      {
        path: '/404',
        handle: publicRoute({ i18n: 'notFound' }),
        lazy: page(() => import('./pages/errors/not-found')),
      },
      {
        path: '/403',
        handle: publicRoute({ i18n: 'forbidden' }),
        lazy: page(() => import('./pages/errors/forbidden')),
      },
      {
        path: '/500',
        handle: publicRoute({ i18n: 'serverError' }),
        lazy: page(() => import('./pages/errors/server-error')),
      },
      { path: '/', element: <Navigate to="/wel" replace /> },
      { path: '/wel', element: <Navigate to="/wel/index" replace /> },
      // The wall screen: full screen, outside the shell, never a tab.
      {
        path: '/wel/dashboard',
        handle: { i18n: 'console', isTab: false },
        lazy: page(() => import('./pages/welcome/dashboard')),
      },
      {
        lazy: page(() => import('./shell/layout/main-layout')),
        children: [
          { path: '/wel/index', handle: { i18n: 'dashboard' }, lazy: page(() => import('./pages/welcome/index')) },
          { path: '/test/index', handle: { i18n: 'test' }, lazy: page(() => import('./pages/test/index')) },
          { path: '/info/index', handle: { i18n: 'info' }, lazy: page(() => import('./pages/info/index')) },
          {
            path: '/dict-horizontal/index',
            handle: { i18n: 'dict:horizontal' },
            lazy: page(() => import('./pages/dict-horizontal/index')),
          },
          {
            path: '/dict-vertical/index',
            handle: { i18n: 'dict:vertical' },
            lazy: page(() => import('./pages/dict-vertical/index')),
          },
          {
            path: '/qr-confirm',
            handle: { i18n: 'social:qrConfirmTitle' },
            lazy: page(() => import('./pages/qr-confirm/index')),
          },
          { path: '/myiframe/*', lazy: page(() => import('./pages/iframe-view/index')) },
          // A device's live page (物联网数据 opens it): a tab per device, beside the menu screen.
          {
            path: '/device/iot/:deviceCode',
            handle: { i18n: 'iot:live.tab', tabParam: 'deviceCode' },
            lazy: page(() => import('./pages/device/iot/live-page')),
          },
          // A warning's page (告警信息 and the notification popover open it) and a notice's.
          {
            path: '/report/warning/:id',
            handle: { i18n: 'warning:detail.tab' },
            lazy: page(() => import('./pages/report/warning/detail')),
          },
          {
            path: '/business/notice/:id',
            handle: { i18n: 'notice:detail.tab' },
            lazy: page(() => import('./pages/business/notice/detail')),
          },
          // The leave process's screens (spec section 2), opened from 我的事务.
          {
            path: '/work/process/leave/form/:processDefinitionId',
            handle: { i18n: 'work:leave.formTab' },
            lazy: page(() => import('./pages/my-work/leave-form')),
          },
          {
            path: '/work/process/leave/handle/:taskId/:processInstanceId/:businessId',
            handle: { i18n: 'work:leave.handleTab', tabParam: 'taskId' },
            lazy: page(() => import('./pages/my-work/leave-handle')),
          },
          {
            path: '/work/process/leave/detail/:processInstanceId/:businessId',
            handle: { i18n: 'work:leave.detailTab', tabParam: 'businessId' },
            lazy: page(() => import('./pages/my-work/leave-detail')),
          },
          // Any other process: the start and task forms its model declares (docs/workflow.md, "Forms").
          {
            path: '/work/process/form/start/:processDefinitionId',
            handle: { i18n: 'work:form.startTab' },
            lazy: page(() => import('./pages/my-work/flow-start-form')),
          },
          {
            path: '/work/process/form/handle/:taskId/:processInstanceId',
            handle: { i18n: 'work:form.handleTab', tabParam: 'taskId' },
            lazy: page(() => import('./pages/my-work/flow-task-handle')),
          },
          {
            path: '/work/process/form/detail/:processInstanceId',
            handle: { i18n: 'work:form.detailTab', tabParam: 'processInstanceId' },
            lazy: page(() => import('./pages/my-work/flow-instance-detail')),
          },
          { path: '*', lazy: async () => ({ Component: (await import('./router/menu-screen')).MenuScreen }) },
        ],
      },
    ],
  },
];

export const createRouter = () => createBrowserRouter(routes);
